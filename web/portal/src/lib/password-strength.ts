/**
 * A quick password-strength estimate for the sign-up hint, without a dictionary (a small bundle matters more on a
 * phone than zxcvbn's precision): length and character variety make an entropy estimate, and the usual weak shapes
 * (one repeated character, a sequence, a name plus digits, the username inside) are penalised.
 * 0 too short, 1 weak, 2 fair, 3 good, 4 strong.
 */
export type Strength = 0 | 1 | 2 | 3 | 4;

const SEQUENCES = ["abcdefghijklmnopqrstuvwxyz", "qwertyuiopasdfghjklzxcvbnm", "01234567890"];
const COMMON = /^(?:password|passwort|motdepasse|letmein|welcome|qwerty|azerty|admin|iloveyou|matrix|123456)/i;

function hasSequence(text: string): boolean {
  const lower = text.toLowerCase();
  for (let i = 0; i + 4 <= lower.length; i++) {
    const chunk = lower.slice(i, i + 4);
    if (SEQUENCES.some((seq) => seq.includes(chunk) || [...seq].reverse().join("").includes(chunk))) return true;
  }
  return false;
}

export function passwordStrength(password: string, username = ""): Strength {
  if (password.length < 8) return 0;
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/[^A-Za-z0-9]/.test(password)) pool += 33;
  const distinct = new Set(password).size;
  // Entropy of the length over the pool, but repeated characters add little.
  let bits = Math.min(password.length, distinct * 2) * Math.log2(Math.max(pool, 2));
  if (/^(.)\1+$/.test(password)) bits = 0;
  if (hasSequence(password)) bits -= 15;
  if (COMMON.test(password)) bits -= 25;
  if (/^[A-Za-z]+\d{1,4}[^A-Za-z0-9]?$/.test(password)) bits -= 10;
  if (username.length >= 3 && password.toLowerCase().includes(username.toLowerCase())) bits -= 20;
  if (bits < 40) return 1;
  if (bits < 60) return 2;
  if (bits < 80) return 3;
  return 4;
}
