/** A HAR of one gRPC call answered 200 with grpc-status 14 (UNAVAILABLE) in its trailers. */
export function grpcHar() {
  const headers = [{ name: 'content-type', value: 'application/grpc' }];
  return {
    log: {
      version: '1.2',
      creator: { name: 'e2e', version: '1' },
      entries: [
        {
          startedDateTime: '2026-12-06T09:00:00.000Z',
          time: 12,
          request: {
            method: 'POST',
            url: 'http://127.0.0.1:50051/shop.Cart/Get',
            httpVersion: 'HTTP/2',
            headers,
            queryString: [],
            cookies: [],
            headersSize: -1,
            bodySize: 0,
          },
          response: {
            status: 200,
            statusText: '',
            httpVersion: 'HTTP/2',
            headers,
            cookies: [],
            content: { size: 0, mimeType: 'application/grpc' },
            redirectURL: '',
            headersSize: -1,
            bodySize: 0,
            _trailers: [
              { name: 'grpc-status', value: '14' },
              { name: 'grpc-message', value: 'cart service unavailable' },
            ],
          },
          cache: {},
          timings: { send: 1, wait: 10, receive: 1 },
        },
      ],
    },
  };
}
