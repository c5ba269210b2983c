import { formatStx, type Microstx, parseStx } from '#ledger/money'

/** What a wallet consents to with its signature: the most a credit token may spend. */
export interface CreditLimits {
  spendCap: Microstx
  maxPrice: Microstx
}

const STATEMENT =
  /^Spend at most (\d+(?:\.\d+)?) STX of my Tollbooth credit, at most (\d+(?:\.\d+)?) STX per call\.$/

/**
 * The statement line of a credit token's sign-in message. The wallet signs
 * its limits in words it can read; the token is issued with the limits read
 * back from this line of the message the service issued (and the wallet
 * signed), never from a field the client sends beside it.
 */
export function creditStatement({ spendCap, maxPrice }: CreditLimits): string {
  return `Spend at most ${formatStx(spendCap)} STX of my Tollbooth credit, at most ${formatStx(maxPrice)} STX per call.`
}

/** The limits a statement creditStatement wrote names; null for any other line. */
export function creditLimitsOf(statement: string | undefined): CreditLimits | null {
  const match = statement === undefined ? null : STATEMENT.exec(statement)
  if (!match) return null
  const spendCap = parseStx(match[1])
  const maxPrice = parseStx(match[2])
  return spendCap === null || maxPrice === null ? null : { spendCap, maxPrice }
}
