/**
 * The discovery search's continuation cursor: opaque to clients, it holds
 * where the next page starts in the search's (total) order. Anything but a
 * cursor this module wrote reads as undefined.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o${offset}`).toString('base64url')
}

export function decodeCursor(cursor: string, maxOffset: number): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(cursor)) return undefined
  const match = /^o(0|[1-9]\d{0,5})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'))
  const offset = match ? Number(match[1]) : Number.NaN
  return offset <= maxOffset ? offset : undefined
}
