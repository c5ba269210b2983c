/*
|--------------------------------------------------------------------------
| Validation messages
|--------------------------------------------------------------------------
|
| A validator keeps the messages provider it was created with, so this runs
| as the first preload: before any route, controller or driver creates one.
|
*/
import vine from '@vinejs/vine'
import { ValidationMessages } from '#core/validation_messages'

vine.messagesProvider = new ValidationMessages()
