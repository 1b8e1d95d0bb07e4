import { describe, expect, it } from 'vitest';
import {
  isSecretHeaderName,
  isSecretParameterName,
  maskHeaderLine,
  maskHeaderValue,
  maskHttpHead,
  maskSecrets,
  maskUrl,
} from '../src/index.js';

describe('maskUrl', () => {
  it('masks the password of any scheme and keeps the user', () => {
    expect(maskUrl('redis://:s3cret@127.0.0.1:6379/0')).toBe('redis://:***@127.0.0.1:6379/0');
    expect(maskUrl('rediss://bob:s3cret@h.example:6380/2?servername=x')).toBe(
      'rediss://bob:***@h.example:6380/2?servername=x',
    );
    expect(maskUrl('redis-cluster://u:pw@a:7000,b:7001')).toBe('redis-cluster://u:***@a:7000,b:7001');
    expect(maskUrl('postgres://app:pw@db.example/crawl')).toBe('postgres://app:***@db.example/crawl');
    expect(maskUrl('postgresql://app:pw@db.example:5432/crawl?sslmode=require')).toBe(
      'postgresql://app:***@db.example:5432/crawl?sslmode=require',
    );
    expect(maskUrl('http://user:pw@proxy.example:3128')).toBe('http://user:***@proxy.example:3128');
    expect(maskUrl('HTTPS://user:pw@Proxy.Example/')).toBe('HTTPS://user:***@Proxy.Example/');
  });

  it('masks a userinfo without a colon whole (a token or a lone password)', () => {
    expect(maskUrl('https://ghp_token123@github.com/x')).toBe('https://***@github.com/x');
    expect(maskUrl('redis://p@h')).toBe('redis://***@h');
  });

  it('masks percent-encoded passwords and passwords holding @', () => {
    expect(maskUrl('redis://u%40x:p%40ss%3Aw@h:1/0')).toBe('redis://u%40x:***@h:1/0');
    expect(maskUrl('redis://:p@ss@h:1/0')).toBe('redis://:***@h:1/0');
  });

  it('masks userinfo before IPv6 hosts and leaves IPv6 hosts alone', () => {
    expect(maskUrl('redis://:pw@[::1]:6379/0')).toBe('redis://:***@[::1]:6379/0');
    expect(maskUrl('http://u:pw@[2001:db8::1]:3128')).toBe('http://u:***@[2001:db8::1]:3128');
    expect(maskUrl('redis://[::1]:6379/0')).toBe('redis://[::1]:6379/0');
  });

  it('leaves a URL without credentials as written', () => {
    for (const url of [
      'redis://127.0.0.1:6379/0',
      'http://proxy.example:3128',
      'https://example.com/a?b=1&c=2#top',
      'http://host:8080/path?mail=a@b.example',
      'redis://h:1/0',
      'http://u:@h/',
    ])
      expect(maskUrl(url)).toBe(url);
  });

  it('masks credential query and fragment parameters, and keeps the others', () => {
    expect(maskUrl('https://api.example/x?q=cats&api_key=K1&token=T1')).toBe(
      'https://api.example/x?q=cats&api_key=***&token=***',
    );
    expect(maskUrl('postgres://h/db?sslmode=require&password=pw')).toBe('postgres://h/db?sslmode=require&password=***');
    expect(maskUrl('https://s3.example/o?X-Amz-Credential=AK&X-Amz-Signature=ab12')).toBe(
      'https://s3.example/o?X-Amz-Credential=***&X-Amz-Signature=***',
    );
    expect(maskUrl('https://app.example/cb#access_token=at&state=1')).toBe(
      'https://app.example/cb#access_token=***&state=1',
    );
  });

  it('masks what looks like userinfo in a URL that does not parse', () => {
    expect(() => new URL('redis://:ab/cd@h:6379')).toThrow();
    expect(maskUrl('redis://:ab/cd@h:6379')).toBe('redis://:***@h:6379');
    expect(maskUrl('redis://:pw@h:99999/0')).toBe('redis://:***@h:99999/0');
    expect(maskUrl('redis://us er:p w@h')).toBe('redis://us er:***@h');
    expect(maskUrl('redis//:pw@h')).toBe('redis//:pw@h'); // no scheme: no userinfo either
    expect(maskUrl('not a url ?token=abc')).toBe('not a url ?token=***');
    expect(maskUrl('')).toBe('');
  });
});

describe('maskSecrets', () => {
  it('masks every URL in a message', () => {
    expect(maskSecrets('crawl: --store "redis://:s3cret@h:6379/0" and http://u:pw@proxy:3128: cannot reach')).toBe(
      'crawl: --store "redis://:***@h:6379/0" and http://u:***@proxy:3128: cannot reach',
    );
  });

  it('masks the values of named credential headers up to the line end, and not option names', () => {
    expect(maskSecrets('sent Authorization: Bearer tok\nnext line')).toBe('sent Authorization: ***\nnext line');
    expect(maskSecrets('"Cookie: sid=1; b=2" refused')).toBe('"Cookie: ***" refused');
    expect(maskSecrets('crawl: --robots-token: expected a token')).toBe('crawl: --robots-token: expected a token');
  });

  it('leaves text without secrets unchanged', () => {
    const text = 'lost the connection to redis://127.0.0.1:6379/0 for 30 s; stopping';
    expect(maskSecrets(text)).toBe(text);
  });
});

describe('isSecretHeaderName', () => {
  it('knows the credential headers, in any letter case', () => {
    for (const name of ['Authorization', 'proxy-authorization', 'COOKIE', 'Set-Cookie', 'X-Api-Key', 'X-Auth-Token'])
      expect(isSecretHeaderName(name)).toBe(true);
    for (const name of ['X-Upload-Token', 'X-Client-Secret', 'X-Session-Id'])
      expect(isSecretHeaderName(name)).toBe(true);
    for (const name of ['Accept-Language', 'From', 'User-Agent', 'Signature-Agent', 'X-Author'])
      expect(isSecretHeaderName(name)).toBe(false);
  });
});

describe('maskHeaderValue', () => {
  it('masks a credential value and keeps others', () => {
    expect(maskHeaderValue('Authorization', 'Bearer x')).toBe('***');
    expect(maskHeaderValue('Accept-Language', 'en')).toBe('en');
  });
});

describe('maskHeaderLine', () => {
  it('masks the value of a credential header line', () => {
    expect(maskHeaderLine('Authorization: Bearer tok')).toBe('Authorization: ***');
    expect(maskHeaderLine('cookie:sid=1')).toBe('cookie: ***');
    expect(maskHeaderLine('Accept-Language: en')).toBe('Accept-Language: en');
  });

  it('masks a credential header line whose colon is missing', () => {
    expect(maskHeaderLine('Authorization Bearer tok')).toBe('Authorization ***');
    expect(maskHeaderLine('Accept-Language en')).toBe('Accept-Language en');
    expect(maskHeaderLine('Authorization')).toBe('Authorization');
  });
});

describe('isSecretParameterName', () => {
  it('knows credential parameters by name, ignoring case, - _ and .', () => {
    for (const name of ['password', 'PWD', 'access_token', 'api-key', 'apiKey', 'client_secret', 'github_token', 'sig'])
      expect(isSecretParameterName(name)).toBe(true);
    for (const name of ['q', 'page', 'servername', 'ca', 'sslmode', 'keyword', 'monkey'])
      expect(isSecretParameterName(name)).toBe(false);
  });

  it('judges a %-encoded name decoded, and a badly encoded one as written', () => {
    expect(isSecretParameterName('pass%77ord')).toBe(true);
    expect(isSecretParameterName('%E0%A4%A')).toBe(false);
  });
});

describe('maskHttpHead', () => {
  it('masks credential header values and keeps the start line and other headers byte for byte', () => {
    const head =
      'GET /a?token=page HTTP/1.1\r\nhost: h\r\nauthorization: Bearer tok\r\nCookie: sid=1\r\nsignature-agent: "https://a"\r\n\r\n';
    expect(maskHttpHead(head)).toBe(
      'GET /a?token=page HTTP/1.1\r\nhost: h\r\nauthorization: ***\r\nCookie: ***\r\nsignature-agent: "https://a"\r\n\r\n',
    );
  });
});
