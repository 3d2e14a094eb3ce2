f();
function f() { return g; var g = 1; }
{ function h() {} let t; }
var v = typeof undeclared;
