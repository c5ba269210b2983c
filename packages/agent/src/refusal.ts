import { type FieldError, RefusedError } from './errors.ts'
import { isObject, parseJson } from './x402.ts'

/** The service's error code of an answer: `{error: {code}}`, or x402's `{error: "<code>"}`. */
export function errorCode(body: unknown): string | null {
  if (!isObject(body)) return null
  if (typeof body.error === 'string') return body.error
  if (isObject(body.error) && typeof body.error.code === 'string') return body.error.code
  return null
}

/** The refusal an answer of the service is (its code, message and invalid fields). */
export function refusal(
  status: number,
  text: string,
  nothingPaid: boolean,
  txid: string | null = null
) {
  const body = parseJson(text)
  const code = errorCode(body) ?? `http_${status}`
  const error = isObject(body) && isObject(body.error) ? body.error : {}
  const message = typeof error.message === 'string' ? error.message : text.slice(0, 200)
  return new RefusedError(status, code, message, nothingPaid, { fields: fieldErrors(error), txid })
}

/** The well-formed entries of a service error's `fields` (`[{field, rule, message}]`). */
function fieldErrors(error: Record<string, unknown>): FieldError[] {
  if (!Array.isArray(error.fields)) return []
  return error.fields.filter(isObject).flatMap((entry) =>
    typeof entry.field === 'string' && typeof entry.message === 'string'
      ? [
          {
            field: entry.field,
            message: entry.message,
            ...(typeof entry.rule === 'string' ? { rule: entry.rule } : {}),
          },
        ]
      : []
  )
}
