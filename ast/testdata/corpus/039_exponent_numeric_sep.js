const principal = 250_000;
const annualRate = 0.0625;
const years = 30;
const n = 12;
const r = annualRate / n;
const payment = principal * (r * (1 + r) ** (years * n)) / ((1 + r) ** (years * n) - 1);

let balance = principal;
const schedule = [];
for (let m = 1; m <= years * n; m++) {
  const interest = balance * r;
  const princ = payment - interest;
  balance -= princ;
  if (m % 12 === 0) schedule.push({ year: m / 12, balance: Math.max(0, Math.round(balance)) });
}

const rates = await tools.finance.getMortgageRates({ product: "30yr-fixed" });
let x = 2;
x **= 3;
return { payment: payment.toFixed(2), marketRate: rates?.current, schedule, hex: 0xff_ff, bin: 0b1010_0101, oct: 0o7_7, exp: 1e3, x };
