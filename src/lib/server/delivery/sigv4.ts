import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for one request, with node:crypto (ShipLogic's original API credentials
 * are an AWS access key pair: its API sits behind AWS API Gateway). Signs host and x-amz-date; the
 * payload hash is over the exact body sent. https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */
export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function sigV4Headers(creds: SigV4Credentials, request: { method: string; url: URL; body: string }, now: Date): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const dateStamp = amzDate.slice(0, 8);
  const path = request.url.pathname.split('/').map((seg) => encode(decodeURIComponent(seg))).join('/') || '/';
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [request.method, path, query, `host:${request.url.host}\nx-amz-date:${amzDate}\n`, 'host;x-amz-date', sha256(request.body)].join('\n');
  const scope = `${dateStamp}/${creds.region}/${creds.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, dateStamp), creds.region), creds.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
  return {
    'x-amz-date': amzDate,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=host;x-amz-date, Signature=${signature}`,
  };
}
