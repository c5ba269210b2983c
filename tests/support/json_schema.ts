import { Ajv2020, type SchemaObject } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/** Strict, as the declarations are checked (app/feeds/output_schema.ts); `pattern`s as plain RegExps. */
const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, allErrors: true })
addFormats.default(ajv)

/** Validates `value` against a schema known to be good (a built-in's, or a checked declaration). */
export function matchesSchema(schema: SchemaObject, value: unknown) {
  const validate = ajv.compile(schema)
  ajv.removeSchema(schema)
  const valid = validate(value)
  return {
    valid,
    errors: valid ? null : ajv.errorsText(validate.errors?.slice(0, 5), { dataVar: 'value' }),
  }
}
