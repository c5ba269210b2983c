import { resolvePointer } from '#feeds/schema_graph'

const MAX_DEPTH = 8
/** Keys of an object, and branches of a union or tuple, shown at most. */
const MAX_KEYS = 40
/** Subschemas read in all: beyond them the shape shows "…", however the references loop. */
const MAX_NODES = 300
/** Characters of one type's words (a long `const` or `enum`). */
const MAX_TEXT = 200

type Schema = Record<string, unknown>

/**
 * The shape a JSON Schema declares, as a tree of its keys and their types
 * ("number", "string (date-time)", "one of: buy | sell"): what a feed page
 * shows of its declared answer (feed_declaration.ts). Only the schema is
 * read, never a served document: the values shown are the declaration's own
 * `const`s and `enum`s. `#/…` references resolve inside the nearest resource
 * (`$id`). Depth, keys, branches, subschemas read and text are bounded, so a
 * schema whose references fan out renders in bounded time and size.
 */
export function shapeOf(schema: unknown): unknown {
  let nodes = 0
  const shape = (node: unknown, resource: unknown, depth: number): unknown => {
    if (typeof node !== 'object' || node === null) return node === false ? 'nothing' : 'any'
    const current = node as Schema
    if (typeof current.$id === 'string') resource = current
    if (depth >= MAX_DEPTH || ++nodes > MAX_NODES) return '…'
    const inner = (child: unknown) => shape(child, resource, depth + 1)
    if (typeof current.$ref === 'string') return inner(resolvePointer(resource, current.$ref))
    if ('const' in current) return fixedValue(current.const)
    if (Array.isArray(current.enum))
      return text(`one of: ${capped(current.enum, enumValue).join(' | ')}`)
    const branches = (current.anyOf ?? current.oneOf) as unknown[] | undefined
    if (Array.isArray(branches)) {
      const shapes = capped(branches, inner)
      return shapes.every((item) => typeof item === 'string') ? text(shapes.join(' | ')) : shapes
    }
    const types = (Array.isArray(current.type) ? current.type : [current.type]).filter(
      Boolean
    ) as string[]
    if (types.includes('object') || current.properties) return objectShape(current, inner)
    if (types.includes('array') || current.items || current.prefixItems) {
      if (Array.isArray(current.prefixItems)) return capped(current.prefixItems, inner)
      return current.items === undefined ? [] : [inner(current.items)]
    }
    if (types.length === 0) return 'any'
    const named = types.join(' | ')
    return text(typeof current.format === 'string' ? `${named} (${current.format})` : named)
  }
  return shape(schema, schema, 0)
}

function objectShape(node: Schema, inner: (child: unknown) => unknown) {
  const required = new Set(Array.isArray(node.required) ? node.required : [])
  const entries = Object.entries((node.properties ?? {}) as Record<string, unknown>)
  const shown: [string, unknown][] = entries
    .slice(0, MAX_KEYS)
    .map(([key, item]) => [text(required.has(key) ? key : `${key}?`), inner(item)])
  if (entries.length > MAX_KEYS) shown.push(['…', `${entries.length - MAX_KEYS} more keys`])
  if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null) {
    shown.push(['<any key>', inner(node.additionalProperties)])
  }
  return Object.fromEntries(shown)
}

/** The shapes of the first MAX_KEYS branches, then "…" for the rest. */
function capped(items: unknown[], inner: (child: unknown) => unknown): unknown[] {
  const shapes = items.slice(0, MAX_KEYS).map(inner)
  return items.length > MAX_KEYS ? [...shapes, '…'] : shapes
}

function text(words: string) {
  return words.length > MAX_TEXT ? `${words.slice(0, MAX_TEXT)}…` : words
}

function enumValue(value: unknown) {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** A declared fixed value, shown as itself (a string is cut like any text). */
function fixedValue(value: unknown) {
  if (typeof value === 'string') return text(value)
  return typeof value === 'object' && value !== null ? text(JSON.stringify(value)) : value
}
