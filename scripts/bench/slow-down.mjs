/**
 * Preloaded into the product's process by `BENCH_SLOW_PRODUCT=<µs> npm run bench` only: every
 * HTTP request first spins the CPU that long. It shows that the bench fails (exit 1, naming the
 * floor) when the product gets slower; it is never part of the product.
 */
import http from 'node:http';

const spinNs = BigInt(Math.round(Number(process.env.BENCH_SLOW_PRODUCT) * 1000));
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function slowed(event, ...args) {
  if (event === 'request') {
    const until = process.hrtime.bigint() + spinNs;
    while (process.hrtime.bigint() < until);
  }
  return emit.call(this, event, ...args);
};
