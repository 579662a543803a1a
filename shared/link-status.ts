import { z } from 'zod';

/** What the debuggee link refused or cut off since the inspector started (the window and the status tool). */
export const LinkStatusSchema = z.object({
  /** Links terminated because the app did not read what the inspector sent (close code 4005). */
  notReading: z.number().int(),
  /** Present when the link accepts apps from the LAN (`--lan`). */
  pairing: z
    .object({
      /** Hellos with a missing or wrong pairing token, and connections refused while their address had to wait. */
      refused: z.number().int(),
      /** Addresses that must wait before they may try again (wrong tokens make them wait longer each time). */
      waiting: z.number().int(),
      lastRefused: z.object({ address: z.string(), at: z.number() }).optional(),
    })
    .optional(),
});
export type LinkStatus = z.infer<typeof LinkStatusSchema>;
