import vine from '@vinejs/vine'
import { challengeNonce, challengeSignature, stacksWalletAddress } from '#auth/validators'
import type { Microstx } from '#ledger/money'
import {
  anyKnownField,
  handleRule,
  partnerEndpointRule,
  plainText,
  stxPrice,
  websiteRule,
} from '#provider_accounts/rules'
import { TEXT_LIMITS } from '#provider_accounts/text_limits'

/** At most TEXT_LIMITS.slug (64) characters. */
const FEED_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

const displayName = () =>
  vine.string().trim().minLength(1).maxLength(TEXT_LIMITS.displayName).use(plainText())
const description = () => vine.string().trim().maxLength(TEXT_LIMITS.description).use(plainText())
const website = () => vine.string().maxLength(2048).use(websiteRule())
const xAccount = () => vine.string().regex(/^@[A-Za-z0-9_]{1,15}$/)
/** Number or decimal string in STX → µSTX (bigint). */
const price = () =>
  vine
    .any()
    .use(stxPrice())
    .transform((value) => value as Microstx)

/**
 * The mode-specific parts of FEED, passed on as they are: the feed's source
 * driver owns their schema (validateSettings), so a driver's new setting
 * needs no change here. `source.type` is checked against the configured
 * Hosted Mirror drivers by FeedSources (source_type_unavailable), not here.
 */
const sourceFields = {
  source_path: vine.string().maxLength(512).optional(),
  forward_query: vine.any().optional(),
  source: vine
    .object({ type: vine.string().maxLength(64) })
    .allowUnknownProperties()
    .optional(),
}

/**
 * What the feed declares it answers: a JSON Schema (2020-12) of `data` and
 * an example; checked by declaredOutput (app/feeds/output_schema.ts), null clears.
 */
const outputFields = {
  output_schema: vine.any().nullable().optional(),
  output_example: vine.any().nullable().optional(),
}

const feedSchema = () =>
  vine.object({
    slug: vine.string().regex(FEED_SLUG),
    display_name: displayName(),
    description: description().optional(),
    price_stx: price(),
    ...sourceFields,
    ...outputFields,
  })

export const createFeedValidator = vine.create(feedSchema())

const updatableFeedFields = {
  display_name: displayName().optional(),
  description: description().optional(),
  price_stx: price().optional(),
  ...sourceFields,
  ...outputFields,
}

export const updateFeedValidator = vine.create(
  vine.object(updatableFeedFields).use(anyKnownField(Object.keys(updatableFeedFields)))
)

export const feedStateValidator = vine.create({ active: vine.boolean({ strict: true }) })

export const registerProviderValidator = vine.create({
  handle: vine.string().maxLength(64).use(handleRule()),
  display_name: displayName(),
  description: description().optional(),
  website: website().optional(),
  x_account: xAccount().optional(),
  integration_mode: vine.enum(['partner_bridge', 'hosted_mirror'] as const),
  partner_endpoint: vine.string().maxLength(2048).use(partnerEndpointRule()).optional(),
  feed: feedSchema().optional(),
})

/**
 * The profile's editable fields. The body parser turns "" (and blanks) into
 * null: null clears description, website and x_account, and is refused for
 * display_name rather than skipped.
 */
const updatableProfileFields = {
  display_name: displayName()
    .optional()
    .requiredWhen((field) => Object.hasOwn(field.parent, 'display_name')),
  description: description().nullable().optional(),
  website: website().nullable().optional(),
  x_account: xAccount().nullable().optional(),
}

export const updateProfileValidator = vine.create(
  vine.object(updatableProfileFields).use(anyKnownField(Object.keys(updatableProfileFields)))
)

export const switchModeValidator = vine.create({
  integration_mode: vine.enum(['partner_bridge', 'hosted_mirror'] as const),
  partner_endpoint: vine.string().maxLength(2048).use(partnerEndpointRule()).optional(),
  feeds: vine
    // One entry per live feed (SwitchIntegrationMode): no cap here, a provider
    // over the live-feed cap must still be able to switch; the 1 MB body limit bounds it.
    .array(vine.object({ slug: vine.string().regex(FEED_SLUG), ...sourceFields }))
    .optional(),
})

export const linkWalletNonceValidator = vine.create({ wallet_address: stacksWalletAddress() })

/** The new wallet's signed challenge and, unless it is the owner wallet, the owner wallet's (owner_*). */
export const linkWalletValidator = vine.create({
  wallet_address: stacksWalletAddress(),
  nonce: challengeNonce(),
  signature: challengeSignature(),
  public_key: challengeSignature().optional(),
  owner_nonce: challengeNonce().optional(),
  owner_signature: challengeSignature().optional(),
  owner_public_key: challengeSignature().optional(),
})

export type FeedInput = Awaited<ReturnType<typeof createFeedValidator.validate>>
export type FeedUpdate = Awaited<ReturnType<typeof updateFeedValidator.validate>>
export type ProfileUpdate = Awaited<ReturnType<typeof updateProfileValidator.validate>>
export type RegistrationInput = Awaited<ReturnType<typeof registerProviderValidator.validate>>
export type ModeSwitchInput = Awaited<ReturnType<typeof switchModeValidator.validate>>
export type LinkWalletInput = Awaited<ReturnType<typeof linkWalletValidator.validate>>
export type SourceFields = Pick<FeedInput, 'source_path' | 'forward_query' | 'source'>
