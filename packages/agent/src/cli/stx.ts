/** µSTX in one STX. */
const MICRO = 1_000_000n

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

/** µSTX as a decimal STX string without trailing zeros: 5000n → "0.005". */
export function formatStx(microstx: bigint): string {
  const sign = microstx < 0n ? '-' : ''
  const abs = microstx < 0n ? -microstx : microstx
  const fraction = (abs % MICRO).toString().padStart(6, '0').replace(/0+$/, '')
  return `${sign}${abs / MICRO}${fraction ? `.${fraction}` : ''}`
}
