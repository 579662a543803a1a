// What a Content-Type says of its body, for the agent (which encodes bodies) and the inspector (which
// decodes the ones still arriving): plain regexes, no zod.

export const TEXTUAL_TYPE =
  /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|csv|yaml|x-yaml|html|x-ndjson|ndjson|jsonl|svg\+xml)\b/i;
export const BINARY_TYPE =
  /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-protobuf|protobuf|wasm|grpc)/i;

export function isTextualType(contentType: string | undefined): boolean {
  return !!contentType && TEXTUAL_TYPE.test(contentType) && !/^image\/(?!svg)/i.test(contentType);
}
