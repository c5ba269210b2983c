/**
 * Rounding of the numbers the built-in feeds publish.
 *
 * `round(value, 2)` and `round2(value)` are not interchangeable: toFixed
 * rounds the exact binary value (ties away from zero), while
 * Math.round(value * 100) rounds the already rounded product (ties towards
 * +∞), so they disagree on some inputs (1.115 → 1.11 vs 1.12, −0.125 →
 * −0.13 vs −0.12). Each adapter keeps the one it was written with, so that
 * feed outputs do not change.
 */

/** `value` to `decimals` places, as Number(value.toFixed(decimals)). */
export function round(value: number, decimals = 2) {
  return Number(value.toFixed(decimals))
}

/** `value` to two places, as Math.round(value * 100) / 100. */
export function round2(value: number) {
  return Math.round(value * 100) / 100
}

/** Token prices span 1e-8 to 1e5 USD: keep six significant digits, not decimals. */
export function roundPrice(value: number) {
  return Number(value.toPrecision(6))
}
