/** Phone numbers for sms. Pure. */

/**
 * E.164: a plus sign, a country code that does not start with 0, and at most 15 digits in all;
 * no spaces or punctuation (that is how SMS providers take them).
 */
export const isE164 = (phone: string) => /^\+[1-9]\d{6,14}$/.test(phone);
