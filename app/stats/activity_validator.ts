import vine from '@vinejs/vine'

export const activityQueryValidator = vine.create({
  limit: vine.number().withoutDecimals().range([1, 100]).optional(),
  /** One feed's calls: a built-in id or `<handle>/<slug>`. */
  feed: vine.string().maxLength(160).optional(),
})
