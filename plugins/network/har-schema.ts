import { z } from 'zod';

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as a zod schema: what the spec requires,
// with custom and unknown fields kept. It validates imports, and exports in the tests.

const nameValue = z.looseObject({ name: z.string(), value: z.string(), comment: z.string().optional() });
const cookie = z.looseObject({
  name: z.string(),
  value: z.string(),
  path: z.string().optional(),
  domain: z.string().optional(),
  expires: z.string().nullable().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  comment: z.string().optional(),
});
const creator = z.looseObject({ name: z.string(), version: z.string(), comment: z.string().optional() });

/** The shape HAR 1.2 requires; extra (custom) fields are kept. Used to validate imports and exports. */
export const HarSchema = z.looseObject({
  log: z.looseObject({
    version: z.string(),
    creator,
    browser: creator.optional(),
    pages: z
      .array(
        z.looseObject({
          startedDateTime: z.string(),
          id: z.string(),
          title: z.string(),
          pageTimings: z.looseObject({ onContentLoad: z.number().optional(), onLoad: z.number().optional() }),
        }),
      )
      .optional(),
    entries: z.array(
      z.looseObject({
        pageref: z.string().optional(),
        startedDateTime: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date'),
        time: z.number(),
        request: z.looseObject({
          method: z.string(),
          url: z.string(),
          httpVersion: z.string(),
          cookies: z.array(cookie),
          headers: z.array(nameValue),
          queryString: z.array(nameValue),
          postData: z
            .looseObject({
              mimeType: z.string(),
              text: z.string().optional(),
              params: z.array(z.looseObject({ name: z.string() })).optional(),
            })
            .optional(),
          headersSize: z.number(),
          bodySize: z.number(),
        }),
        response: z.looseObject({
          status: z.number(),
          statusText: z.string(),
          httpVersion: z.string(),
          cookies: z.array(cookie),
          headers: z.array(nameValue),
          content: z.looseObject({
            size: z.number(),
            compression: z.number().optional(),
            mimeType: z.string(),
            text: z.string().optional(),
            encoding: z.string().optional(),
          }),
          redirectURL: z.string(),
          headersSize: z.number(),
          bodySize: z.number(),
        }),
        cache: z.looseObject({}),
        timings: z.looseObject({
          blocked: z.number().optional(),
          dns: z.number().optional(),
          connect: z.number().optional(),
          send: z.number(),
          wait: z.number(),
          receive: z.number(),
          ssl: z.number().optional(),
        }),
        serverIPAddress: z.string().optional(),
        connection: z.string().optional(),
        comment: z.string().optional(),
      }),
    ),
    comment: z.string().optional(),
  }),
});
