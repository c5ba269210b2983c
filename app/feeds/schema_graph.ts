type Schema = Record<string, unknown>

/** Keywords applying their subschemas to the same instance. */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else']
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf']
// `dependencies` is draft-07's dependentSchemas (with property lists), which ajv still runs.
const IN_PLACE_MAP = ['dependentSchemas', 'dependencies']
/** Keywords applying their subschemas to parts of the instance (its items, values or keys). */
const DESCENDING_ONE = [
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]
const DESCENDING_LIST = ['prefixItems']
const DESCENDING_MAP = ['properties', 'patternProperties']

/**
 * The subschemas a validator evaluates when it fully expands a declared
 * schema, following its references: above this a declaration is refused.
 * A chain of `allOf` pairs doubles at each link, so 36 links of 1.7 KB
 * would take minutes to check against one example.
 */
const MAX_SUBSCHEMAS = 2_000

/** Subschema evaluations checking the example may take (each a subschema against one part of it). */
const MAX_EXAMPLE_WORK = 100_000

/** The subschema a local JSON Pointer (`#`, `#/$defs/price`) names in `resource`, or undefined. */
export function resolvePointer(resource: unknown, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined
  let parts: string[]
  try {
    // Every segment counts, an empty one too (RFC 6901: `#/properties/` names the key "").
    parts = (ref === '#' ? [] : ref.slice(2).split('/')).map((part) =>
      decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~')
    )
  } catch {
    return undefined // a malformed escape (`%E0`): it names nothing
  }
  return parts.reduce<unknown>(
    (node, part) =>
      typeof node === 'object' && node !== null ? (node as Schema)[part] : undefined,
    resource
  )
}

interface Applied {
  schema: unknown
  descends: boolean
}

/** The subschemas `node` applies, by keyword, with whether each goes into the instance. */
function appliedBy(node: Schema): Applied[] {
  const applied: Applied[] = []
  const add = (keys: string[], descends: boolean, shape: 'one' | 'list' | 'map') => {
    for (const key of keys) {
      const value = node[key]
      if (value === undefined) continue
      const schemas =
        shape === 'one'
          ? [value]
          : shape === 'list'
            ? Array.isArray(value)
              ? value
              : []
            : typeof value === 'object' && value !== null
              ? Object.values(value)
              : []
      for (const schema of schemas) applied.push({ schema, descends })
    }
  }
  add(IN_PLACE_ONE, false, 'one')
  add(IN_PLACE_LIST, false, 'list')
  add(IN_PLACE_MAP, false, 'map')
  add(DESCENDING_ONE, true, 'one')
  add(DESCENDING_LIST, true, 'list')
  add(DESCENDING_MAP, true, 'map')
  return applied
}

/** Each reference a node makes: a validator follows every one of them. */
function referencesOf(node: Schema): string[] {
  return [node.$ref, node.$dynamicRef, node.$recursiveRef].filter(
    (ref): ref is string => typeof ref === 'string'
  )
}

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Why a declared schema (already known to stay inside itself, no `$id`)
 * could not be checked in bounded time, or null: a reference that is not a
 * JSON Pointer (`#name` anchors are not resolved), a loop of references that
 * never goes into the data (it would recurse forever on any instance), or an
 * expansion into more than MAX_SUBSCHEMAS subschemas.
 */
export function schemaGraphProblem(root: Schema): string | null {
  try {
    rejectInPlaceLoops(root)
    if (expandedSize(root) > MAX_SUBSCHEMAS) {
      return `expands into more than ${MAX_SUBSCHEMAS} subschemas once its $refs are followed: refer to shared parts less often`
    }
    return null
  } catch (error) {
    if (error instanceof GraphProblem) return error.message
    if (error instanceof RangeError) return 'chains its $refs too deeply to be checked'
    throw error
  }
}

class GraphProblem extends Error {}

function target(root: Schema, ref: string): unknown {
  if (ref !== '#' && !ref.startsWith('#/')) {
    throw new GraphProblem(
      `may refer only by JSON Pointer ("#/$defs/…"), not to the anchor ${JSON.stringify(ref.slice(0, 100))}`
    )
  }
  return resolvePointer(root, ref)
}

/**
 * Refuses a loop of references none of whose steps goes into the data
 * (`{"allOf":[{"$ref":"#"}]}`): a DFS over the referenced schemas, each one
 * linked to those it reaches in place.
 */
function rejectInPlaceLoops(root: Schema) {
  const inPlaceTargets = (schema: unknown, found: unknown[] = []): unknown[] => {
    if (!isSchemaObject(schema)) return found
    for (const ref of referencesOf(schema)) found.push(target(root, ref))
    for (const child of appliedBy(schema)) {
      if (!child.descends) inPlaceTargets(child.schema, found)
    }
    return found
  }
  const state = new Map<unknown, 'open' | 'done'>()
  const visit = (schema: unknown) => {
    state.set(schema, 'open')
    for (const next of inPlaceTargets(schema)) {
      if (state.get(next) === 'open') {
        throw new GraphProblem(
          'refers to itself without going into the data (through allOf, anyOf, oneOf, not, if/then/else or $ref alone): it would never finish'
        )
      }
      if (!state.has(next)) visit(next)
    }
    state.set(schema, 'done')
  }
  // Every subschema may start a loop, not only the root: walk them all, references aside.
  const walk = (schema: unknown) => {
    if (!isSchemaObject(schema)) return
    if (!state.has(schema)) visit(schema)
    for (const child of appliedBy(schema)) walk(child.schema)
    if (isSchemaObject(schema.$defs)) Object.values(schema.$defs).forEach(walk)
  }
  walk(root)
}

/**
 * How many subschemas the schema expands into, each reference's target
 * counted once per use (memoised per target; a reference back into a schema
 * being expanded, which goes into the data, counts as one). Stops counting
 * past MAX_SUBSCHEMAS.
 */
function expandedSize(root: Schema): number {
  const sizes = new Map<unknown, number>()
  const expanding = new Set<unknown>()
  const size = (schema: unknown): number => {
    if (!isSchemaObject(schema)) return 1
    let total = 1
    for (const ref of referencesOf(schema)) total += sizeOfTarget(target(root, ref))
    for (const child of appliedBy(schema)) {
      total += size(child.schema)
      if (total > MAX_SUBSCHEMAS) break
    }
    return total
  }
  const sizeOfTarget = (schema: unknown): number => {
    const known = sizes.get(schema)
    if (known !== undefined) return known
    if (expanding.has(schema)) return 1
    expanding.add(schema)
    const counted = size(schema)
    expanding.delete(schema)
    sizes.set(schema, counted)
    return counted
  }
  return sizeOfTarget(root)
}

/**
 * Whether checking `example` against the schema (past schemaGraphProblem)
 * stays within MAX_EXAMPLE_WORK subschema evaluations, counted the way a
 * validator collecting all errors walks it (every branch, every applicable
 * key): a recursive schema that doubles at each level of the data is refused
 * before it is run.
 */
export function exampleWorkProblem(root: Schema, example: unknown): string | null {
  let work = 0
  const evaluate = (schema: unknown, data: unknown) => {
    if (!isSchemaObject(schema)) return
    if (++work > MAX_EXAMPLE_WORK) throw new GraphProblem('')
    for (const ref of referencesOf(schema)) evaluate(resolvePointer(root, ref), data)
    for (const key of [...IN_PLACE_ONE, ...IN_PLACE_LIST, ...IN_PLACE_MAP]) {
      const value = schema[key]
      if (value === undefined) continue
      const branches = Array.isArray(value)
        ? value
        : IN_PLACE_MAP.includes(key) && isSchemaObject(value)
          ? Object.values(value)
          : [value]
      for (const branch of branches) evaluate(branch, data)
    }
    // uniqueItems compares the items pairwise.
    if (schema.uniqueItems === true && Array.isArray(data)) {
      work += (data.length * data.length) / 2
      if (work > MAX_EXAMPLE_WORK) throw new GraphProblem('')
    }
    if (Array.isArray(data)) {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
      data.forEach((item, index) => {
        if (index < prefix.length) evaluate(prefix[index], item)
        else evaluate(schema.items, item)
        evaluate(schema.contains, item)
        evaluate(schema.unevaluatedItems, item)
      })
    } else if (isSchemaObject(data)) {
      const properties = isSchemaObject(schema.properties) ? schema.properties : {}
      const patterns = isSchemaObject(schema.patternProperties)
        ? Object.values(schema.patternProperties)
        : []
      for (const [key, value] of Object.entries(data)) {
        if (Object.hasOwn(properties, key)) evaluate(properties[key], value)
        else evaluate(schema.additionalProperties, value)
        // Which patterns match is not worked out here: each is counted as if it did.
        for (const pattern of patterns) evaluate(pattern, value)
        evaluate(schema.propertyNames, key)
        evaluate(schema.unevaluatedProperties, value)
      }
    }
  }
  try {
    evaluate(root, example)
    return null
  } catch (error) {
    // A RangeError: the walk itself went too deep (references chained at every level of the data).
    if (error instanceof GraphProblem || error instanceof RangeError) {
      return `takes more than ${MAX_EXAMPLE_WORK} subschema checks to validate against output_schema: the schema applies itself too many times at each level`
    }
    throw error
  }
}
