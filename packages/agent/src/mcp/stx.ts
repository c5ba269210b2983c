import { AgentError } from '../errors.ts'

export { formatStx } from '../stx.ts'

/** An amount of STX written by the operator ("0.005") as µSTX; `name` names it in the error. */
export function parseStx(value: string, name: string): bigint {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(value.trim())
  if (!match) {
    throw new AgentError(
      'invalid_options',
      `${name} must be an amount of STX such as 0.01 (at most 6 decimals), not "${value}"`
    )
  }
  return BigInt(match[1]) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'))
}
