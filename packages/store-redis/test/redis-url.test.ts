// The Redis URL check: everything it refuses, it refuses in one line that names the URL with its
// password masked, before any connection is made.

import { PolitelyError } from '@politely/core';
import { describe, expect, it } from 'vitest';
import { isRedisClusterUrl, parseRedisClusterUrl, parseRedisUrl } from '../src/index.js';

function refusal(url: string): string {
  try {
    parseRedisUrl(url);
  } catch (error) {
    expect(error).toBeInstanceOf(PolitelyError);
    expect((error as PolitelyError).code).toBe('ERR_INVALID_OPTION');
    const { message } = error as Error;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`${url} was accepted`);
}

describe('parseRedisUrl', () => {
  it('reads host, port, database, credentials and TLS', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6390/3')).toMatchObject({
      tls: false,
      host: '127.0.0.1',
      port: 6390,
      db: 3,
      username: undefined,
      password: undefined,
      display: 'redis://127.0.0.1:6390/3',
    });
    expect(parseRedisUrl('redis://localhost')).toMatchObject({
      host: 'localhost',
      port: 6379,
      db: 0,
      display: 'redis://localhost:6379/0',
    });
    expect(parseRedisUrl('redis://localhost/')).toMatchObject({ db: 0 });
    expect(parseRedisUrl('REDIS://example.test:1/15')).toMatchObject({ host: 'example.test', port: 1, db: 15 });
    expect(parseRedisUrl('redis://[::1]:7000/2')).toMatchObject({
      host: '::1',
      port: 7000,
      db: 2,
      display: 'redis://[::1]:7000/2',
    });
    expect(parseRedisUrl('redis://:s%40cret@h/0')).toMatchObject({
      username: undefined,
      password: 's@cret',
      display: 'redis://:***@h:6379/0',
    });
    expect(parseRedisUrl('redis://bob:pw@h:6380')).toMatchObject({
      username: 'bob',
      password: 'pw',
      display: 'redis://bob:***@h:6380/0',
    });
    expect(parseRedisUrl('rediss://h.example/1?servername=cache.example&ca=%2Fetc%2Fca.pem')).toMatchObject({
      tls: true,
      port: 6379,
      db: 1,
      servername: 'cache.example',
      ca: '/etc/ca.pem',
    });
  });

  it('refuses another scheme, or none', () => {
    expect(refusal('http://127.0.0.1:6379')).toMatch(
      /the scheme must be redis:\/\/, rediss:\/\/ \(TLS\), redis-cluster:\/\/ or rediss-cluster:\/\/, got http:/,
    );
    expect(refusal('127.0.0.1:6379')).toMatch(/scheme/);
    expect(refusal('redis:127.0.0.1')).toMatch(/expected redis:\/\/HOST/);
    expect(refusal('unix:///tmp/redis.sock')).toMatch(/got unix:/);
  });

  it('refuses a database that is not a decimal integer', () => {
    expect(refusal('redis://127.0.0.1:6379/abc')).toBe(
      `redis: "redis://127.0.0.1:6379/abc" is not a usable Redis URL: the database (the path) must be a decimal integer such as /0, got '/abc'`,
    );
    for (const path of ['/-1', '/1.5', '/0x1', '/1/2', '/ 1', '/1e3', '/9999999'])
      expect(refusal(`redis://h${path}`), path).toMatch(/database/);
  });

  it('refuses a port that is not an integer from 1 to 65535', () => {
    for (const port of ['0', '65536', '99999', 'abc', '-1', '63.5'])
      expect(refusal(`redis://h:${port}/0`), port).toMatch(
        new RegExp(`the port must be an integer from 1 to 65535, got '${port.replace('.', '\\.')}'`),
      );
    expect(parseRedisUrl('redis://h:/0').port).toBe(6379); // an empty port is the default, as in any URL
  });

  it('refuses unknown query parameters, and TLS ones without TLS', () => {
    expect(refusal('redis://h/0?db=2')).toMatch(/unknown query parameter 'db'/);
    expect(refusal('rediss://h/0?rejectUnauthorized=false')).toMatch(/unknown query parameter 'rejectUnauthorized'/);
    expect(refusal('redis://h/0?servername=x')).toMatch(/'servername' is a TLS option: use rediss:\/\//);
    expect(refusal('rediss://h/0?ca=a&ca=b')).toMatch(/'ca' is given more than once/);
    expect(refusal('rediss://h/0?servername=')).toMatch(/'servername' needs a value/);
  });

  it('refuses a missing host, a fragment, and a user name without a password', () => {
    expect(refusal('redis:///0')).toMatch(/the host is missing/);
    expect(refusal('redis://h/0#x')).toMatch(/fragment/);
    expect(refusal('redis://secret@h/0')).toMatch(/a user name needs a password/);
  });

  it('never prints a password', () => {
    for (const url of [
      'redis://:hunter2@h/abc',
      'redis://u:hunter2@h:0/0',
      'redis://u:hunter2@h/0?x=1',
      'http://u:hunter2@h/0',
      'redis://hunter2@h/0',
      'redis://:hun/ter2@h:6379/0',
      'redis://:hunter2@[::1]:99999/0',
      'redis-cluster://:hunter2@a:1,b:99999',
    ]) {
      expect(refusal(url), url).not.toContain('hun');
    }
    for (const url of ['redis-cluster://:hun/ter2@h:1', 'rediss-cluster://u:hun?ter2@a:1,b:2']) {
      expect(() => parseRedisClusterUrl(url)).toThrow(/%-encode it/);
      try {
        parseRedisClusterUrl(url);
      } catch (error) {
        expect((error as Error).message, url).not.toContain('hun');
      }
    }
    for (const url of ['redis://:hun#ter2@h:1/0', 'redis://:hun?ter2@h/0']) {
      expect(refusal(url), url).not.toContain('hun');
    }
    expect(parseRedisUrl('redis://u:hunter2@h/0').display).not.toContain('hunter2');
  });
});

describe('parseRedisClusterUrl', () => {
  const clusterRefusal = (url: string): string => {
    try {
      parseRedisClusterUrl(url);
    } catch (error) {
      expect((error as PolitelyError).code).toBe('ERR_INVALID_OPTION');
      return (error as Error).message;
    }
    throw new Error(`${url} was accepted`);
  };

  it('reads the seed nodes, credentials and TLS', () => {
    expect(parseRedisClusterUrl('redis-cluster://127.0.0.1:7000,127.0.0.1:7001')).toMatchObject({
      tls: false,
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
      display: 'redis-cluster://127.0.0.1:7000,127.0.0.1:7001',
    });
    expect(parseRedisClusterUrl('rediss-cluster://u:secret@a.test:7000,[::1]:7001/0?servername=x')).toMatchObject({
      tls: true,
      username: 'u',
      password: 'secret',
      servername: 'x',
      nodes: [
        { host: 'a.test', port: 7000 },
        { host: '::1', port: 7001 },
      ],
      display: 'rediss-cluster://u:***@a.test:7000,[::1]:7001?servername=x',
    });
    expect(isRedisClusterUrl('REDIS-CLUSTER://h:1')).toBe(true);
    expect(isRedisClusterUrl('redis://h:1')).toBe(false);
  });

  it('refuses what a cluster cannot be, naming the node, the password masked', () => {
    expect(clusterRefusal('redis-cluster://')).toMatch(/no node given/);
    expect(clusterRefusal('redis-cluster://a:1,,b:2')).toMatch(/an empty node between commas/);
    expect(clusterRefusal('redis-cluster://:pw@a:1,b:99999')).toBe(
      'redis: "redis-cluster://:***@a:1,b:99999" is not a usable Redis Cluster URL: node "b:99999": the port must be an integer from 1 to 65535, got \'99999\'',
    );
    expect(clusterRefusal('redis-cluster://a:1/2')).toMatch(/a cluster has database 0 only, got \/2/);
    expect(clusterRefusal('redis-cluster://a:1?ca=x')).toMatch(/'ca' is a TLS option: use rediss:\/\//);
    // A cluster URL where one Redis is expected says so.
    expect(refusal('redis-cluster://a:1')).toMatch(/names a Redis Cluster/);
  });
});
