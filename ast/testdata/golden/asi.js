let a = 1
let b = a
++b
const c = () => {}
return
a + b
