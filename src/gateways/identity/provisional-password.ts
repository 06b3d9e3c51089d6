/**
 * The password an invited user is created with. Nobody ever sees or uses it (the invitee sets their
 * own through the password-change ticket), but the provider checks it against the connection's
 * password policy, so it must pass the strictest one. Auth0's "Excellent" policy
 * (https://auth0.com/docs/authenticate/database-connections/password-strength): at least 10
 * characters, at least 3 of the 4 classes lower case, upper case, digits and special characters
 * (`!@#$%^&*`), and "no more than 2 identical characters in a row" (`111` is refused).
 *
 * The earlier `base64url(24 bytes) + "aA1!"` broke that last rule about once in 140 passwords, and a
 * user whose creation is refused gets no invitation.
 */
import { randomInt } from 'node:crypto';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
/** From the policy's own list of special characters. */
const SPECIAL = '!@#$%^&*';
const ALPHABET = LOWER + UPPER + DIGITS + SPECIAL;

export const PROVISIONAL_PASSWORD_LENGTH = 32;

/** A uniform integer in [0, max); crypto's by default, injectable for tests. */
export type RandomInt = (max: number) => number;

/**
 * One character of each class first (so every class is present whatever the draws), then uniform
 * draws from the whole alphabet. Where the two previous characters are equal, that character is
 * left out of the draw: a third in a row is impossible, without a retry loop.
 */
export function provisionalPassword(random: RandomInt = randomInt): string {
  const characters = [LOWER, UPPER, DIGITS, SPECIAL].map((set) => set[random(set.length)]!);
  while (characters.length < PROVISIONAL_PASSWORD_LENGTH) {
    const [beforeLast, last] = characters.slice(-2);
    const pool = beforeLast === last ? ALPHABET.replace(last!, '') : ALPHABET;
    characters.push(pool[random(pool.length)]!);
  }
  return characters.join('');
}
