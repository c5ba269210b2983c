const MAX_DEPTH = 6
const MAX_KEYS = 40

/**
 * The shape of a JSON document, not its content: every value replaced by its
 * type name, every array by its first item, bounded in depth and keys. What a
 * feed page shows as its example, so the page never gives paid data away.
 */
export function shapeOf(value: unknown, depth = 0): unknown {
  if (value === null) return null
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0], depth + 1)]
  if (typeof value === 'object') {
    if (depth >= MAX_DEPTH) return '…'
    const entries = Object.entries(value as Record<string, unknown>)
    const shown = entries
      .slice(0, MAX_KEYS)
      .map(([key, item]) => [key, shapeOf(item, depth + 1)] as const)
    if (entries.length > MAX_KEYS) shown.push(['…', `${entries.length - MAX_KEYS} more keys`])
    return Object.fromEntries(shown)
  }
  return typeof value
}
