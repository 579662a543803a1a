// Fake secrets of every shape the default redaction hides, for tests. Assembled at run time, so
// that no token-shaped string sits in the source (secret scanners would flag it).

const rep = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** One example per token pattern of SECRET_VALUE_PATTERNS, by the pattern's name. */
export const SECRET_SAMPLES: Record<string, string[]> = {
  'bearer or basic credentials': [`Bearer ${rep('abC9.', 24)}`, `basic ${btoa('ann:correct horse battery')}`],
  'JSON Web Token': [['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjMifQ', rep('sIg_-', 43)].join('.')],
  'PEM private key block': [
    ['-----BEGIN RSA PRIVATE KEY-----', rep('MIIEpA', 64), '-----END RSA PRIVATE KEY-----'].join('\n'),
    ['-----BEGIN PRIVATE KEY-----', rep('MIIEvQ', 64), '-----END PRIVATE KEY-----'].join('\n'),
    ['-----BEGIN OPENSSH PRIVATE KEY-----', rep('b3BlbnNzaC', 70)].join('\n'),
  ],
  'AWS access key id': [`AKIA${rep('Z7QW', 16)}`, `ASIA${rep('3KD9', 16)}`],
  'GitHub token': [`ghp_${rep('aB3d', 36)}`, `gho_${rep('Qx7z', 36)}`, `github_pat_${rep('11AbC_', 82)}`],
  'GitLab token': [`glpat-${rep('xY-z9', 20)}`],
  'Slack token': [`xoxb-${rep('1234567890-', 24)}${rep('aBc', 24)}`, `xoxp-${rep('98765-', 30)}`],
  'Stripe secret or restricted key': [`sk_live_${rep('51Hx', 24)}`, `rk_test_${rep('Tq8P', 24)}`],
  'Google API key': [`AIza${rep('Sy_D-9', 35)}`],
  'OpenAI or Anthropic key': [`sk-proj-${rep('Ab9_', 48)}`, `sk-ant-${rep('api03-', 40)}`, `sk-${rep('T3Bl', 32)}`],
  'npm token': [`npm_${rep('z9Yx', 36)}`],
  'SendGrid key': [`SG.${rep('aB1_', 22)}.${rep('cD2-', 43)}`],
};

/** Text that looks a little like a secret but is not one: left as it is. */
export const NOT_SECRETS = [
  'the bearer of bad news',
  `pk_live_${rep('51Hx', 24)}`,
  'task-force-abcdefghijklmnopqrstuvwxyz',
  'AKIA is not a key on its own',
  'eyJ alone is not a JWT',
  '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  'ghp_short',
  'user@example.test logged in from 10.0.0.7',
];
