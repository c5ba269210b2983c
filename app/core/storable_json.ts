/**
 * JSON we cannot keep: PostgreSQL stores no NUL character (text or jsonb)
 * and no unpaired UTF-16 surrogate in jsonb (JSON.stringify writes one as a
 * `\ud800` escape, which jsonb refuses), and JSON.stringify overflows the
 * stack on deep nesting (JSON.parse does not: a source can send what we
 * cannot write back), and a number JSON.parse overflowed to Infinity (`1e400`)
 * would be written back as null. Checked at the edge, so such a document is refused
 * with a reason instead of failing as a database or stack error.
 */

/** Nesting deeper than this is refused: no data feed needs it, and it stays far below V8's and PostgreSQL's limits. */
export const MAX_JSON_DEPTH = 256

/**
 * Whether any string or key in a JSON value passes `test`, any number
 * `testNumber`, or (with maxDepth) its nesting exceeds maxDepth; walked
 * without recursion, so no depth can overflow the stack.
 */
export function someStringOrKey(
  value: unknown,
  test: (text: string) => boolean,
  maxDepth = Number.POSITIVE_INFINITY,
  testNumber: (number: number) => boolean = () => false
): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]]
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!
    if (typeof item === 'string') {
      if (test(item)) return true
    } else if (typeof item === 'number') {
      if (testNumber(item)) return true
    } else if (typeof item === 'object' && item !== null) {
      if (depth >= maxDepth) return true
      for (const [key, child] of Object.entries(item)) {
        if (test(key)) return true
        pending.push([child, depth + 1])
      }
    }
  }
  return false
}

export function containsNul(value: unknown): boolean {
  return someStringOrKey(value, (text) => text.includes('\0'))
}

/** Whether a parsed JSON value nests deeper than MAX_JSON_DEPTH. */
export function isTooDeep(value: unknown): boolean {
  return someStringOrKey(value, () => false, MAX_JSON_DEPTH)
}

/** Whether a parsed JSON value can be stored in a jsonb column as it is. */
export function isStorableAsJsonb(value: unknown): boolean {
  return !someStringOrKey(
    value,
    (text) => text.includes('\0') || !text.isWellFormed(),
    MAX_JSON_DEPTH,
    (number) => !Number.isFinite(number)
  )
}
