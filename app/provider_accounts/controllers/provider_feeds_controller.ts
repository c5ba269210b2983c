import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { privateFeedView } from '#provider_accounts/provider_views'
import {
  createFeedValidator,
  feedStateValidator,
  updateFeedValidator,
} from '#provider_accounts/validators'
import { FirstPoll } from '#feeds/first_poll'

/** The owner's feed management: create, edit, pause/resume, delete. */
@inject()
export default class ProviderFeedsController {
  constructor(
    private feeds: ManageFeeds,
    private firstPoll: FirstPoll
  ) {}

  async store({ auth, params, request, response }: HttpContext) {
    const input = await request.validateUsing(createFeedValidator)
    const { provider, feed } = await this.feeds.create(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      input
    )
    const firstPoll = await this.firstPoll.of(feed)
    return response.status(201).send({
      feed: privateFeedView(provider, feed),
      ...(firstPoll ? { first_poll: firstPoll } : {}),
    })
  }

  async update({ auth, params, request }: HttpContext) {
    const patch = await request.validateUsing(updateFeedValidator)
    const { provider, feed } = await this.feeds.update(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug),
      patch
    )
    return { feed: privateFeedView(provider, feed) }
  }

  async setState({ auth, params, request }: HttpContext) {
    const { active } = await request.validateUsing(feedStateValidator)
    const { provider, feed } = await this.feeds.setActive(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug),
      active
    )
    return { feed: privateFeedView(provider, feed) }
  }

  async destroy({ auth, params, response }: HttpContext) {
    await this.feeds.remove(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug)
    )
    return response.noContent()
  }
}
