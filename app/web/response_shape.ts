const MAX_DEPTH = 8
const MAX_KEYS = 40

type Schema = Record<string, unknown>

/**
 * The shape a JSON Schema declares, as a tree of its keys and their types
 * ("number", "string (date-time)", "one of: buy | sell"): what a feed page
 * shows of its declared answer (feed_declaration.ts). Only the schema is
 * read, never a served document. `#…` references resolve inside the nearest
 * resource (`$id`); depth and keys are bounded.
 */
export function shapeOf(schema: unknown, resource: unknown = schema, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null) return schema === false ? 'nothing' : 'any'
  const node = schema as Schema
  if (typeof node.$id === 'string') resource = node
  if (depth >= MAX_DEPTH) return '…'
  if (typeof node.$ref === 'string') {
    return shapeOf(pointer(resource, node.$ref), resource, depth + 1)
  }
  if ('const' in node) return JSON.stringify(node.const)
  if (Array.isArray(node.enum)) return `one of: ${node.enum.map(enumValue).join(' | ')}`
  const branches = (node.anyOf ?? node.oneOf) as unknown[] | undefined
  if (Array.isArray(branches)) {
    const shapes = branches.map((branch) => shapeOf(branch, resource, depth + 1))
    return shapes.every((shape) => typeof shape === 'string') ? shapes.join(' | ') : shapes
  }
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter(Boolean) as string[]
  if (types.includes('object') || node.properties) return objectShape(node, resource, depth)
  if (types.includes('array') || node.items || node.prefixItems) {
    if (Array.isArray(node.prefixItems)) {
      return node.prefixItems.map((item) => shapeOf(item, resource, depth + 1))
    }
    return node.items === undefined ? [] : [shapeOf(node.items, resource, depth + 1)]
  }
  if (types.length === 0) return 'any'
  const named = types.join(' | ')
  return typeof node.format === 'string' ? `${named} (${node.format})` : named
}

function objectShape(node: Schema, resource: unknown, depth: number) {
  const required = new Set(Array.isArray(node.required) ? node.required : [])
  const entries = Object.entries((node.properties ?? {}) as Record<string, unknown>)
  const shown: [string, unknown][] = entries
    .slice(0, MAX_KEYS)
    .map(([key, item]) => [required.has(key) ? key : `${key}?`, shapeOf(item, resource, depth + 1)])
  if (entries.length > MAX_KEYS) shown.push(['…', `${entries.length - MAX_KEYS} more keys`])
  if (typeof node.additionalProperties === 'object' && node.additionalProperties !== null) {
    shown.push(['<any key>', shapeOf(node.additionalProperties, resource, depth + 1)])
  }
  return Object.fromEntries(shown)
}

/** The subschema a local reference (`#/$defs/price`) points at, or undefined. */
function pointer(resource: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  return ref
    .slice(1)
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, part) =>
        typeof node === 'object' && node !== null ? (node as Schema)[part] : undefined,
      resource
    )
}

function enumValue(value: unknown) {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
