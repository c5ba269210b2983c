import vine from '@vinejs/vine'

const CURSOR = /^[A-Za-z0-9_-]{1,32}$/
/** Ledger entry ids are PostgreSQL bigints: a larger cursor names no entry (and would not bind). */
const LARGEST_ENTRY_ID = 2n ** 63n - 1n

/** The statement's continuation cursor: opaque to clients, the last entry a page showed. */
export function encodeStatementCursor(entryId: bigint): string {
  return Buffer.from(`e${entryId}`).toString('base64url')
}

function decodeStatementCursor(cursor: string): bigint | undefined {
  const match = /^e([1-9]\d{0,18})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'))
  const entryId = match ? BigInt(match[1]) : undefined
  return entryId !== undefined && entryId <= LARGEST_ENTRY_ID ? entryId : undefined
}

const statementCursor = vine.createRule((value, _options, field) => {
  if (typeof value !== 'string' || decodeStatementCursor(value) === undefined) {
    field.report('The cursor field must be a cursor a statement page gave', 'cursor', field)
  }
})

/** GET /credit/statement */
export const statementValidator = vine.create({
  cursor: vine
    .string()
    .regex(CURSOR)
    .use(statementCursor())
    .transform((cursor) => decodeStatementCursor(cursor)!)
    .optional(),
  limit: vine.number().withoutDecimals().range([1, 100]).optional(),
})
