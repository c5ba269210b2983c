import vine from '@vinejs/vine'

export const activityQueryValidator = vine.create({
  limit: vine.number().withoutDecimals().range([1, 100]).optional(),
})
