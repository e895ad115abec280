import { z } from 'zod';
import { messageSchema } from './account';
import { pageQueryShape, pageSchema } from './lists';
import { requiredText } from './rules';

export const MESSAGE_LIMITS = { title: 120, message: 4000 } as const;

/** `GET limited/messages`: newest first; `invoiceID` narrows to one invoice's thread (spec §2). */
export const listMessagesQuerySchema = z.object({
  invoiceID: z.uuid().optional(),
  unreadOnly: z.enum(['true', 'false']).default('false'),
  ...pageQueryShape,
});
export const listMessagesResponseSchema = pageSchema(messageSchema).extend({
  /**
   * Unread messages of the counted type written by someone else (spec §3), among those listed: all of
   * the issuer's (the header badge's count) or, with `invoiceID`, that invoice's thread.
   */
  unread: z.number().int().min(0),
});

/** `POST limited/messages`: a message to us, about an invoice or in general. */
export const createMessageBodySchema = z.object({
  invoiceID: z.uuid().nullable().default(null),
  title: requiredText(MESSAGE_LIMITS.title),
  message: requiredText(MESSAGE_LIMITS.message, { multiline: true }),
});
export type CreateMessageBody = z.input<typeof createMessageBodySchema>;
export const createMessageResponseSchema = messageSchema;
