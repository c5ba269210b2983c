/**
 * What the pages know of a source driver, from its declaration
 * (config/feeds.ts): the dashboard renders its source choices and their
 * fields from these, so a new driver needs no page change. This file imports
 * nothing: the pages import its types (docs/pages.md).
 */

/** Which feeds a driver serves (see SourceDriverMode in source_driver.ts). */
export type SourceDriverMode = 'builtin' | 'partner_bridge' | 'hosted_mirror'

/**
 * How a feed's data reaches us: `fetched` from its source on each paid call,
 * `polled` on a schedule, or sent by the provider: `pushed` (signed) or `uploaded` (by hand).
 */
export type SourceDelivery = 'fetched' | 'polled' | 'pushed' | 'uploaded'

/** One setting a provider fills in for a feed of this source. */
export interface SourceField {
  /** The setting's key: under `source` for Hosted Mirror, at the feed's top level for Partner Bridge. */
  name: string
  label: string
  kind: 'text' | 'url' | 'choice'
  hint: string
  required?: boolean
  placeholder?: string
  maxLength?: number
  /** With `choice`: the values offered, in words. */
  choices?: Array<{ value: number | string; label: string }>
  /** What a new feed's form starts with. */
  default?: number | string
}

/** A source a provider may choose, as the pages get it (`type` is its config key). */
export interface SourceChoice {
  type: string
  mode: SourceDriverMode
  delivery: SourceDelivery
  label: string
  description: string
  fields: SourceField[]
}
