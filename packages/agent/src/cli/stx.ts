import { MICROSTX_PER_STX as MICRO } from '../stx.ts'

export { formatStx } from '../stx.ts'

/**
 * An STX amount typed on the command line ("0.01", "5", ".5") as µSTX,
 * exactly: no floating point, and more than 6 decimals (a fraction of a µSTX) is refused.
 */
export function parseStx(text: string): bigint | null {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text.trim())
  if (!match || (match[1] === '' && !match[2])) return null
  const [, whole, fraction = ''] = match
  if (fraction.length > 6 || whole.length > 12) return null
  return BigInt(whole || '0') * MICRO + BigInt(fraction.padEnd(6, '0'))
}
