/** A handler's answer when it needs more than 200 + data: a status and response headers. */
export class ApiResponse {
  readonly status: number;
  readonly data: unknown;
  readonly headers: Array<[string, string]>;

  constructor(data: unknown, status = 200, headers: Array<[string, string]> = []) {
    this.data = data;
    this.status = status;
    this.headers = headers;
  }

  withHeader(name: string, value: string | number): ApiResponse {
    return new ApiResponse(this.data, this.status, [...this.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase()), [name, String(value)]]);
  }
}

export function respond(data: unknown, status = 200, headers: Record<string, string | number> = {}): ApiResponse {
  const pairs: Array<[string, string]> = [];
  for (const name in headers) if (Object.hasOwn(headers, name)) pairs.push([name, String(headers[name])]);
  return new ApiResponse(data, status, pairs);
}
