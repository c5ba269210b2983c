import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import Feed from '#models/feed'
import Provider from '#models/provider'
import { E_PROVIDER_FEED_NOT_FOUND } from '#provider_accounts/exceptions'

/**
 * The owned provider's row read again and locked inside `trx`, for a change
 * that reads and writes it: the owner wallet never changes, so the check the
 * middleware made still holds, and providers are never deleted.
 */
export function lockedProvider(provider: Provider, trx: TransactionClientContract) {
  return Provider.query({ client: trx }).where('id', provider.id).forUpdate().firstOrFail()
}

/** A live (not deleted) feed of the provider by slug, or 404; locked inside `trx` when given. */
export async function liveFeedOf(
  provider: Provider,
  slug: string,
  trx?: TransactionClientContract
) {
  const query = Feed.query(trx ? { client: trx } : undefined)
    .where('provider_id', provider.id)
    .whereNull('deleted_at')
    .where('slug', slug)
  const feed = await (trx ? query.forUpdate() : query).first()
  if (!feed) throw new E_PROVIDER_FEED_NOT_FOUND([slug])
  return feed
}
