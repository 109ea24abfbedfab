/** Codes are six characters from this alphabet (`[A-Z0-9]{6}`). */
export const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const CODE_LENGTH = 6;
export const CODE_PATTERN = /^[A-Z0-9]{6}$/;
