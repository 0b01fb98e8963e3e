// Prints the scrypt hash of a password for oauth.users[].passwordHash: reads the password from
// standard input (so it stays out of the shell history), e.g. `pnpm hash-password < secret.txt`.
import { hashPassword } from '../src/oauth/passwords';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const password = Buffer.concat(chunks)
  .toString('utf8')
  .replace(/\r?\n$/, '');
if (password.length < 8) {
  console.error('the password must have at least 8 characters');
  process.exit(1);
}
console.log(await hashPassword(password));
