import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import type { RegExpEngine } from 'ajv/dist/types/index.js'
import addFormats from 'ajv-formats'
import { errors as vineErrors } from '@vinejs/vine'
import { RE2JS } from 're2js'
import { registerCodedRules } from '#core/coded_rules'
import { someStringOrKey } from '#core/storable_json'
import { exampleWorkProblem, schemaGraphProblem } from '#feeds/schema_graph'

/** Caps of a declared schema and of its example (docs/api.md, "Output declaration"). */
export const OUTPUT_LIMITS = { maxBytes: 32_768, maxDepth: 32 } as const

export const JSON_SCHEMA_2020 = 'https://json-schema.org/draft/2020-12/schema'

interface OutputProblem {
  field: string
  message: string
  rule: 'invalid_output_schema' | 'output_example_mismatch'
}

registerCodedRules('invalid_output_schema', 'output_example_mismatch')

/**
 * A declared `pattern` runs on RE2 (linear time), not on the backtracking
 * RegExp: a provider's `(a+)+$` and a crafted example cannot hang the server.
 */
const re2: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(pattern)
    // ajv shares compiled patterns by their toString.
    return { test: (text: string) => compiled.test(text), toString: () => `re2js:${pattern}` }
  },
  { code: 're2js' }
)

/**
 * One validator for every declared schema. Strict: an unknown keyword (a
 * typo such as `properites`) or format is refused rather than ignored. No
 * `loadSchema`, so nothing is ever fetched; the schemas compiled here are
 * dropped again (removeSchema), so untrusted schemas do not pile up in its cache.
 */
const ajv = new Ajv2020({
  strict: true,
  strictTypes: false,
  strictTuples: false,
  allErrors: true,
  logger: false,
  code: { regExp: re2 },
})
addFormats.default(ajv)

/** A feed's declared output as stored (Feed.outputSchema, Feed.outputExample). */
export interface DeclaredOutput {
  outputSchema: Record<string, unknown> | null
  outputExample: unknown
}

const NONE: DeclaredOutput = { outputSchema: null, outputExample: null }

/**
 * The output a create or edit declares, over the feed's `current` one: a
 * field left out keeps its value, null clears it, and clearing the schema
 * clears the example too. Refused (422, field errors) unless the schema is
 * a valid declaration and the example matches it.
 */
export function declaredOutput(
  fields: { output_schema?: unknown; output_example?: unknown },
  current: DeclaredOutput = NONE,
  prefix = ''
): DeclaredOutput {
  const schema = fields.output_schema === undefined ? current.outputSchema : fields.output_schema
  const example =
    fields.output_example !== undefined
      ? fields.output_example
      : fields.output_schema === null
        ? null
        : current.outputExample
  if (schema === null) {
    if (example === null || example === undefined) return NONE
    throw new vineErrors.E_VALIDATION_ERROR([
      {
        field: `${prefix}output_example`,
        message: 'output_example needs an output_schema to match',
        rule: 'output_example_mismatch',
      },
    ])
  }
  const problems = outputProblems(schema, example, prefix)
  if (problems.length > 0) throw new vineErrors.E_VALIDATION_ERROR(problems)
  return { outputSchema: schema as Record<string, unknown>, outputExample: example ?? null }
}

/**
 * Checks a declared schema of `data` and, if given, its example: size and
 * depth caps, references inside the document only (`#…`, no `$id`) that
 * can be checked in bounded time (schema_graph.ts), a valid 2020-12 schema
 * (meta-schema and strict compilation), and the example valid against it,
 * within a bounded number of checks. Returns the problems, empty when both are fine.
 */
function outputProblems(schema: unknown, example: unknown, prefix = ''): OutputProblem[] {
  const schemaField = `${prefix}output_schema`
  const exampleField = `${prefix}output_example`
  const refuse = (message: string): OutputProblem[] => [
    { field: schemaField, message: `output_schema ${message}`, rule: 'invalid_output_schema' },
  ]
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return refuse('must be a JSON Schema object')
  }
  const sizeProblem = capProblem(schema)
  if (sizeProblem) return refuse(sizeProblem)
  const outside = outsideReference(schema)
  if (outside) return refuse(outside)
  const graphProblem = schemaGraphProblem(schema as Record<string, unknown>)
  if (graphProblem) return refuse(graphProblem)
  let validate
  try {
    if (!ajv.validateSchema(schema)) {
      return refuse(`is not a valid JSON Schema (2020-12): ${describe(ajv.errors, 'schema')}`)
    }
    validate = ajv.compile(schema)
  } catch (error) {
    return refuse(`is not usable: ${(error as Error).message}`)
  } finally {
    ajv.removeSchema(schema)
  }
  if (example === undefined || example === null) return []
  const exampleProblem =
    capProblem(example) ?? exampleWorkProblem(schema as Record<string, unknown>, example)
  const mismatch = exampleProblem
    ? `output_example ${exampleProblem}`
    : exampleMismatch(validate, example)
  return mismatch
    ? [{ field: exampleField, message: mismatch, rule: 'output_example_mismatch' }]
    : []
}

/** Why the example fails the compiled schema, or null; whatever the validator throws refuses it too, never a 500. */
function exampleMismatch(validate: ValidateFunction, example: unknown) {
  try {
    if (validate(example)) return null
  } catch (error) {
    return `output_example could not be checked against output_schema: ${(error as Error).message}`
  }
  return `output_example does not match output_schema: ${describe(validate.errors, 'output_example')}`
}

function describe(errors: ErrorObject[] | null | undefined, dataVar: string) {
  return ajv.errorsText(errors?.slice(0, 5), { dataVar })
}

/** Depth first, walked without recursion: JSON.stringify of a value nested thousands deep would overflow the stack. */
function capProblem(value: unknown) {
  if (someStringOrKey(value, () => false, OUTPUT_LIMITS.maxDepth)) {
    return `nests deeper than ${OUTPUT_LIMITS.maxDepth} levels`
  }
  if (Buffer.byteLength(JSON.stringify(value)) > OUTPUT_LIMITS.maxBytes) {
    return `is larger than ${OUTPUT_LIMITS.maxBytes} bytes of JSON`
  }
  return null
}

/**
 * A reference that leaves the schema (`$ref`/`$dynamicRef` not starting with
 * `#`), or an `$id` (which would rebase them): a declaration must stand alone.
 */
function outsideReference(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') {
      if ((key === '$ref' || key === '$dynamicRef') && !item.startsWith('#')) {
        return `may only refer inside itself ("#/$defs/…"), not to ${JSON.stringify(item.slice(0, 100))}`
      }
      if (key === '$id') return 'may not set $id: a declaration stands alone'
    }
    const found = outsideReference(item)
    if (found) return found
  }
  return null
}
