import { useState } from 'preact/hooks'
import { api } from '../lib/api'
import { site } from '../lib/site'
import type { Feed } from './types'
import { Field, Notice, Problem, described, fieldProblem, useAction } from './ui'

/** A JSON value as the owner edits it: pretty-printed, empty for none. */
function asText(value: unknown) {
  return value === null || value === undefined ? '' : JSON.stringify(value, null, 2)
}

/** The text parsed, null when empty, or the reason it is not JSON, in words. */
function parsed(text: string, name: string): { value: unknown } | { problem: string } {
  if (text.trim() === '') return { value: null }
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    return { problem: `The ${name} is not valid JSON: ${(error as Error).message}` }
  }
}

/**
 * What the feed declares it answers: a JSON Schema (2020-12) of its `data`
 * and an example of it. Buyers see the schema's shape on the feed's page;
 * empty fields clear the declaration (docs/api.md, "Output declaration").
 */
export function DeclarationCard(props: {
  feed: Feed
  path: string
  onSaved: (feed: Feed) => void
}) {
  const [schema, setSchema] = useState(() => asText(props.feed.output_schema))
  const [example, setExample] = useState(() => asText(props.feed.output_example))
  const [local, setLocal] = useState<{ schema?: string; example?: string }>({})
  const [saved, setSaved] = useState(false)
  const save = useAction(async (body: { output_schema: unknown; output_example: unknown }) => {
    const answer = await api<{ feed: Feed }>(props.path, { method: 'PATCH', body })
    setSaved(true)
    props.onSaved(answer.feed)
  })
  const problem = (field: 'schema' | 'example') =>
    local[field] ?? fieldProblem(save.error, `output_${field}`)
  return (
    <form
      class="card"
      aria-labelledby="declaration-title"
      onSubmit={(event) => {
        event.preventDefault()
        setSaved(false)
        const readSchema = parsed(schema, 'schema')
        const readExample = parsed(example, 'example')
        setLocal({
          schema: 'problem' in readSchema ? readSchema.problem : undefined,
          example: 'problem' in readExample ? readExample.problem : undefined,
        })
        if ('problem' in readSchema || 'problem' in readExample) return
        save.run({ output_schema: readSchema.value, output_example: readExample.value })
      }}
    >
      <h2 id="declaration-title">Response shape</h2>
      <p class="muted">
        Tell buyers what the <code>data</code> of a paid answer looks like. The feed's public page
        shows its keys and types (and the values of any <code>const</code> or <code>enum</code> you
        declare), never a served answer. Leave both empty to declare nothing.
      </p>
      <Field
        id="declaration-schema"
        label="JSON Schema of the data (optional)"
        hint={`Draft 2020-12, at most ${site().outputDeclaration.maxBytes / 1024} KB, references only inside itself (#/$defs/…).`}
        problem={problem('schema')}
      >
        <textarea
          {...described('declaration-schema', problem('schema'))}
          class="mono"
          rows={10}
          spellcheck={false}
          value={schema}
          placeholder={'{\n  "type": "object",\n  "properties": { "usd": { "type": "number" } }\n}'}
          onInput={(event) => setSchema(event.currentTarget.value)}
        />
      </Field>
      <Field
        id="declaration-example"
        label="Example data (optional)"
        hint="Must match the schema."
        problem={problem('example')}
      >
        <textarea
          {...described('declaration-example', problem('example'))}
          class="mono"
          rows={6}
          spellcheck={false}
          value={example}
          placeholder={'{ "usd": 97000.5 }'}
          onInput={(event) => setExample(event.currentTarget.value)}
        />
      </Field>
      <Problem error={save.error} />
      {saved && !save.error && (
        <Notice kind="ok">Saved. The feed's page shows the new shape.</Notice>
      )}
      <div class="actions">
        <button type="submit" class="btn" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save response shape'}
        </button>
      </div>
    </form>
  )
}
