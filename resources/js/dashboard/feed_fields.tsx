import type { IntegrationMode, MirrorSourceType } from './types'
import { Field, TextField, described, fieldProblem } from './ui'

/** A feed as its form holds it (strings as typed). */
export interface FeedDraft {
  slug: string
  display_name: string
  description: string
  price_stx: string
  source_path: string
  source_type: MirrorSourceType
  source_url: string
  poll_interval_seconds: string
}

export const EMPTY_FEED: FeedDraft = {
  slug: '',
  display_name: '',
  description: '',
  price_stx: '0.005',
  source_path: '/',
  source_type: 'codehost_raw',
  source_url: '',
  poll_interval_seconds: '300',
}

/** Source types we fetch on a schedule (the others send us their documents). */
export function isPolled(type: string | undefined) {
  return type === 'codehost_raw' || type === 'objectstore_url'
}

export const SOURCE_TYPES: Array<{ type: MirrorSourceType; label: string; words: string }> = [
  {
    type: 'codehost_raw',
    label: 'A JSON file in a code repository',
    words: 'The raw URL of a file on GitHub, GitLab or similar. We fetch it on a schedule.',
  },
  {
    type: 'objectstore_url',
    label: 'A JSON object in storage',
    words:
      'The URL of an object in S3, R2, GCS or similar (a signed URL works). We fetch it on a schedule.',
  },
  {
    type: 'webhook_push',
    label: 'You push it to us',
    words:
      'Your system POSTs each new document to Tollbooth, signed with a push secret shown once.',
  },
  {
    type: 'manual_upload',
    label: 'You upload it by hand',
    words: 'Upload a JSON document from the dashboard whenever it changes.',
  },
]

const POLLS = [
  ['60', 'every minute'],
  ['300', 'every 5 minutes'],
  ['900', 'every 15 minutes'],
  ['3600', 'every hour'],
]

/** The FEED body of the API for a mode, from what the form holds. */
export function feedBody(draft: FeedDraft, mode: IntegrationMode) {
  return {
    slug: draft.slug.trim(),
    display_name: draft.display_name.trim(),
    description: draft.description.trim() || undefined,
    price_stx: draft.price_stx.trim(),
    ...sourceBody(draft, mode),
  }
}

/** Only the mode-specific part (`source_path`, or `source`). */
export function sourceBody(draft: FeedDraft, mode: IntegrationMode) {
  if (mode === 'partner_bridge') return { source_path: draft.source_path.trim() }
  const polled = isPolled(draft.source_type)
  return {
    source: polled
      ? {
          type: draft.source_type,
          url: draft.source_url.trim(),
          poll_interval_seconds: Number(draft.poll_interval_seconds),
        }
      : { type: draft.source_type },
  }
}

/** "BTC spot price" → "btc-spot-price" */
export function slugOf(name: string) {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
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
  const set = (patch: Partial<FeedDraft>) => onChange({ ...draft, ...patch })
  const problem = (field: string) => fieldProblem(error, `${prefix}${field}`)
  const id = (field: string) => `${idPrefix}-${field}`
  const polled = isPolled(draft.source_type)

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
            maxLength={80}
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
              maxLength={64}
              // Browsers compile `pattern` with the v flag, where a bare `-` in a class is an error.
              pattern="[a-z0-9](?:[a-z0-9\-]{0,62}[a-z0-9])?"
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
              maxLength={280}
              onInput={(event) => set({ description: event.currentTarget.value })}
            />
          </Field>
          <Field
            id={id('price')}
            label="Price per call"
            hint="In STX, from 0.0001 to 10; most feeds sell for 0.003 to 0.05. You keep 97% of it."
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
      {part === 'listing' ? null : mode === 'partner_bridge' ? (
        <TextField
          id={id('path')}
          label="Path on your API"
          hint="The route Tollbooth calls on your server after a buyer pays, e.g. /v1/prices. No query string."
          problem={problem('source_path')}
          value={draft.source_path}
          required
          onValue={(path) => set({ source_path: path })}
        />
      ) : (
        <>
          <fieldset class="field" style="border:0;padding:0;margin:0 0 16px">
            <legend class="label" style="margin-bottom:6px">
              Where the data comes from
            </legend>
            <div class="choices">
              {SOURCE_TYPES.map((source) => (
                <label class="choice" key={source.type}>
                  <input
                    type="radio"
                    name={id('source-type')}
                    value={source.type}
                    checked={draft.source_type === source.type}
                    onChange={() => set({ source_type: source.type })}
                  />
                  <strong>{source.label}</strong>
                  <p>{source.words}</p>
                </label>
              ))}
            </div>
            {problem('source.type') && (
              <span class="problem" role="alert">
                {problem('source.type')}
              </span>
            )}
          </fieldset>
          {polled && (
            <>
              <TextField
                id={id('url')}
                type="url"
                label="URL of the JSON document"
                hint="An https URL that answers with JSON. We fetch it once now, then on the schedule below."
                problem={problem('source.url') ?? problem('source')}
                value={draft.source_url}
                required
                placeholder="https://raw.githubusercontent.com/you/data/main/prices.json"
                onValue={(url) => set({ source_url: url })}
              />
              <Field
                id={id('poll')}
                label="How often we fetch it"
                hint="Buyers get the latest copy we fetched."
                problem={problem('source.poll_interval_seconds')}
              >
                <select
                  {...described(id('poll'), problem('source.poll_interval_seconds'))}
                  value={draft.poll_interval_seconds}
                  onChange={(event) => set({ poll_interval_seconds: event.currentTarget.value })}
                >
                  {POLLS.map(([value, words]) => (
                    <option value={value} key={value}>
                      {words}
                    </option>
                  ))}
                </select>
              </Field>
            </>
          )}
        </>
      )}
    </div>
  )
}

/** The form of an existing feed's settings. */
export function draftOf(feed: {
  slug: string
  display_name: string
  description: string | null
  price_stx: string
  source_path?: string
  source?: { type: MirrorSourceType; url?: string; poll_interval_seconds?: number }
}): FeedDraft {
  return {
    slug: feed.slug,
    display_name: feed.display_name,
    description: feed.description ?? '',
    price_stx: feed.price_stx,
    source_path: feed.source_path ?? '/',
    source_type: feed.source?.type ?? 'codehost_raw',
    source_url: feed.source?.url ?? '',
    poll_interval_seconds: String(feed.source?.poll_interval_seconds ?? 300),
  }
}
