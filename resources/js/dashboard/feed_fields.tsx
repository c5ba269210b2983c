import type { SourceChoice, SourceField } from '../../../app/feeds/source_choice'
import { formatStx } from '../lib/money'
import { site } from '../lib/site'
import { sourceOf, useSources } from './sources_context'
import type { Feed as FeedView, IntegrationMode } from './types'
import { Field, TextField, described, fieldProblem } from './ui'

/** A feed as its form holds it (strings as typed). */
export interface FeedDraft {
  slug: string
  display_name: string
  description: string
  price_stx: string
  /** The Hosted Mirror source chosen (a SourceChoice's type). */
  source_type: string
  /** The sources' fields as typed, by name (partner_bridge's and the chosen mirror's are sent). */
  settings: Record<string, string>
}

/** Every declared field with what a new feed's form starts with. */
function defaultSettings(sources: SourceChoice[]): Record<string, string> {
  const settings: Record<string, string> = {}
  for (const field of sources.flatMap((source) => source.fields)) {
    settings[field.name] ??= String(field.default ?? '')
  }
  return settings
}

function firstMirror(sources: SourceChoice[]) {
  return sources.find((source) => source.mode === 'hosted_mirror')?.type ?? ''
}

/** A new feed's form. */
export function emptyFeed(sources: SourceChoice[]): FeedDraft {
  return {
    slug: '',
    display_name: '',
    description: '',
    price_stx: '0.005',
    source_type: firstMirror(sources),
    settings: defaultSettings(sources),
  }
}

/** The FEED body of the API for a mode, from what the form holds. */
export function feedBody(draft: FeedDraft, mode: IntegrationMode, sources: SourceChoice[]) {
  return {
    slug: draft.slug.trim(),
    display_name: draft.display_name.trim(),
    description: draft.description.trim() || undefined,
    price_stx: draft.price_stx.trim(),
    ...sourceBody(draft, mode, sources),
  }
}

/**
 * Only the mode-specific part: a Partner Bridge feed's fields at the FEED's
 * top level (`source_path`), a Hosted Mirror feed's under `source` with its type.
 */
export function sourceBody(draft: FeedDraft, mode: IntegrationMode, sources: SourceChoice[]) {
  if (mode === 'partner_bridge') {
    return settingsOf(
      sources.find((source) => source.mode === 'partner_bridge'),
      draft
    )
  }
  const chosen = sourceOf(sources, draft.source_type)
  return { source: { type: draft.source_type, ...settingsOf(chosen, draft) } }
}

/** A source's fields as the API takes them: a choice's own value, text trimmed, empty optional ones left out. */
function settingsOf(source: SourceChoice | undefined, draft: FeedDraft) {
  const settings: Record<string, string | number> = {}
  for (const field of source?.fields ?? []) {
    const typed = draft.settings[field.name] ?? ''
    const choice = field.choices?.find((option) => String(option.value) === typed)
    if (choice) settings[field.name] = choice.value
    else if (typed.trim() !== '' || field.required) settings[field.name] = typed.trim()
  }
  return settings
}

/** "BTC spot price" → "btc-spot-price" */
export function slugOf(name: string) {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, site().limits.text.slug)
}

interface Props {
  draft: FeedDraft
  onChange: (draft: FeedDraft) => void
  mode: IntegrationMode
  /** The last refusal, and the prefix its fields carry (`feed.` in a registration). */
  error: unknown
  prefix?: string
  /** Which fields: the listing (name, address, description, price), the source, or all. */
  part?: 'all' | 'listing' | 'source'
  /** An existing feed: its slug is fixed. */
  existing?: boolean
  idPrefix?: string
}

export function FeedFields({
  draft,
  onChange,
  mode,
  error,
  prefix = '',
  part = 'all',
  existing,
  idPrefix = 'feed',
}: Props) {
  const sources = useSources()
  const { text, price } = site().limits
  const set = (patch: Partial<FeedDraft>) => onChange({ ...draft, ...patch })
  const problem = (field: string) => fieldProblem(error, `${prefix}${field}`)
  const id = (field: string) => `${idPrefix}-${field}`
  const mirrors = sources.filter((source) => source.mode === 'hosted_mirror')
  const source =
    mode === 'partner_bridge'
      ? sources.find((choice) => choice.mode === 'partner_bridge')
      : sourceOf(sources, draft.source_type)
  const settingsPrefix = mode === 'partner_bridge' ? '' : 'source.'

  return (
    <div>
      {part !== 'source' && (
        <>
          <TextField
            id={id('name')}
            label="Feed name"
            hint="Shown to buyers in the marketplace."
            problem={problem('display_name')}
            value={draft.display_name}
            required
            maxLength={text.displayName}
            onValue={(name) => {
              const followsName =
                !existing && (draft.slug === '' || draft.slug === slugOf(draft.display_name))
              set({ display_name: name, ...(followsName ? { slug: slugOf(name) } : {}) })
            }}
          />
          {!existing && (
            <TextField
              id={id('slug')}
              label="Feed address"
              hint="Lowercase letters, digits and hyphens. Buyers call it at /feeds/p/<your handle>/<this>."
              problem={problem('slug')}
              value={draft.slug}
              required
              maxLength={text.slug}
              // Browsers compile `pattern` with the v flag, where a bare `-` in a class is an error.
              pattern={`[a-z0-9](?:[a-z0-9\\-]{0,${text.slug - 2}}[a-z0-9])?`}
              onValue={(slug) => set({ slug })}
            />
          )}
          <Field
            id={id('description')}
            label="Description (optional)"
            hint="One sentence: what is in it, how often it changes."
            problem={problem('description')}
          >
            <textarea
              {...described(id('description'), problem('description'))}
              value={draft.description}
              maxLength={text.description}
              onInput={(event) => set({ description: event.currentTarget.value })}
            />
          </Field>
          <Field
            id={id('price')}
            label="Price per call"
            hint={`In STX, from ${formatStx(BigInt(price.minimumMicrostx))} to ${formatStx(BigInt(price.maximumMicrostx))}; most feeds sell for 0.003 to 0.05. You keep 97% of it.`}
            problem={problem('price_stx')}
          >
            <div class="input-prefix">
              <span>STX</span>
              <input
                type="text"
                inputMode="decimal"
                {...described(id('price'), problem('price_stx'))}
                value={draft.price_stx}
                required
                onInput={(event) => set({ price_stx: event.currentTarget.value })}
              />
            </div>
          </Field>
        </>
      )}
      {part !== 'listing' && mode === 'hosted_mirror' && (
        <fieldset class="field" style="border:0;padding:0;margin:0 0 16px">
          <legend class="label" style="margin-bottom:6px">
            Where the data comes from
          </legend>
          <div class="choices">
            {mirrors.map((choice) => (
              <label class="choice" key={choice.type}>
                <input
                  type="radio"
                  name={id('source-type')}
                  value={choice.type}
                  checked={draft.source_type === choice.type}
                  onChange={() => set({ source_type: choice.type })}
                />
                <strong>{choice.label}</strong>
                <p>{choice.description}</p>
              </label>
            ))}
          </div>
          {(problem('source.type') ?? problem('source')) && (
            <span class="problem" role="alert">
              {problem('source.type') ?? problem('source')}
            </span>
          )}
        </fieldset>
      )}
      {part !== 'listing' &&
        source?.fields.map((field) => (
          <SettingField
            key={`${source.type}-${field.name}`}
            id={id(field.name)}
            field={field}
            value={draft.settings[field.name] ?? ''}
            problem={problem(`${settingsPrefix}${field.name}`)}
            onValue={(value) => set({ settings: { ...draft.settings, [field.name]: value } })}
          />
        ))}
    </div>
  )
}

/** One declared field of a source: a text or URL input, or a choice. */
function SettingField(props: {
  id: string
  field: SourceField
  value: string
  problem?: string | null
  onValue: (value: string) => void
}) {
  const { id, field, value, problem, onValue } = props
  if (field.kind === 'choice') {
    return (
      <Field id={id} label={field.label} hint={field.hint} problem={problem}>
        <select
          {...described(id, problem)}
          value={value}
          onChange={(event) => onValue(event.currentTarget.value)}
        >
          {(field.choices ?? []).map((choice) => (
            <option value={String(choice.value)} key={String(choice.value)}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
    )
  }
  return (
    <TextField
      id={id}
      type={field.kind}
      label={field.label}
      hint={field.hint}
      problem={problem}
      value={value}
      required={field.required}
      maxLength={field.maxLength}
      placeholder={field.placeholder}
      onValue={onValue}
    />
  )
}

/**
 * The form of an existing feed's settings: a Hosted Mirror feed's settings
 * are under `source`, a Partner Bridge feed's at its top level.
 */
export function draftOf(feed: FeedView, sources: SourceChoice[]): FeedDraft {
  const stored: Partial<Record<string, unknown>> = feed.source ?? { ...feed }
  const mode = feed.source ? 'hosted_mirror' : 'partner_bridge'
  const settings = defaultSettings(sources)
  for (const { name } of sources.flatMap((source) => (source.mode === mode ? source.fields : []))) {
    const value = stored[name]
    if (typeof value === 'string' || typeof value === 'number') settings[name] = String(value)
  }
  return {
    slug: feed.slug,
    display_name: feed.display_name,
    description: feed.description ?? '',
    price_stx: feed.price_stx,
    source_type: feed.source?.type ?? firstMirror(sources),
    settings,
  }
}
