const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a route parameter can name a uuid row (anything else is simply not found). */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
