/**
 * Auth0's "Excellent" password policy, as the IdP management stand-in enforces it and the
 * generator's property test checks it
 * (https://auth0.com/docs/authenticate/database-connections/password-strength; the preset of the
 * auth0-password-policies package: minimum 10 characters, three of four character groups, "may not
 * contain any character repeated more than twice" in a row).
 */
const CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[!@#$%^&*]/];

/** Why the password fails the policy, or undefined when it passes. */
export function excellentPolicyViolation(password: string): string | undefined {
  if (password.length < 10) return 'shorter than 10 characters';
  if (CLASSES.filter((pattern) => pattern.test(password)).length < 3) return 'fewer than 3 of the 4 character classes';
  if (/(.)\1\1/s.test(password)) return 'more than 2 identical characters in a row';
  return undefined;
}
