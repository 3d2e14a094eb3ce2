function format(value) {
  return typeof value === "number" ? value.toFixed(1) : value.toISOString().slice(0, 10);
}
return [format(3.14159), format(new Date(Date.UTC(2024, 0, 15)))];
