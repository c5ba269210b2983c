import vine from '@vinejs/vine'
import { MAX_PAGE } from '#core/pagination'
import { ValidationMessages } from '#core/validation_messages'

/** The query values of the pages' lists, named as the 422 page says them. */
const messagesProvider = new ValidationMessages({ q: 'search', category: 'category', page: 'page' })

/** `?page=` of a paged list: absent is the first page. */
const pageNumber = () => vine.number().withoutDecimals().range([1, MAX_PAGE]).optional()

/** A paged list without filters: /market/providers, a provider's feeds. */
export const listPageValidator = vine.create({ page: pageNumber() })
listPageValidator.messagesProvider = messagesProvider

/** Characters of a marketplace search (the search box's maxlength too). */
export const MAX_SEARCH_LENGTH = 100

/**
 * The marketplace's view, `/?q=…&category=…&page=…`: every word of `q` is
 * looked for in a feed's name, description, category and provider; an unknown
 * category simply matches no feed.
 */
export const marketQueryValidator = vine.create({
  q: vine.string().trim().maxLength(MAX_SEARCH_LENGTH).optional(),
  category: vine.string().trim().maxLength(40).optional(),
  page: pageNumber(),
})
marketQueryValidator.messagesProvider = messagesProvider
