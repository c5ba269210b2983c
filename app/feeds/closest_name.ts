/**
 * The name a mistyped one most likely meant: the closest by edit distance
 * (case-insensitive), when it is within two edits — fewer for short names,
 * where two edits turn any name into almost any other.
 */
export function closestName(input: string, names: readonly string[]): string | undefined {
  const typed = input.toLowerCase()
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    if (name === input) continue
    const allowed = Math.min(2, Math.floor(name.length / 3))
    if (Math.abs(name.length - typed.length) > allowed) continue
    const distance = editDistance(typed, name.toLowerCase())
    if (distance <= allowed && (!best || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}

/** Levenshtein distance: single-character insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution)
    }
    previous = current
  }
  return previous[b.length]
}
