let count = 0;
const inc = () => count++;
function make(step) {
  let local = 1;
  return (x) => x + step;
}
for (let i = 0; i < 3; i++) setTimeout(() => i);
return inc() + make(2)(3);
