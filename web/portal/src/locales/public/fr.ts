/** The public sign-up page in French (docs/i18n.md). "Vous", as Home Assistant's and Element's French. */
import { plurals } from "../../../../common/i18n.ts";
import type { PublicMessages } from "../../strings/public.ts";

const p = plurals("fr");

export default {
  mas: {
    label: "Vérifiez votre invitation",
    intro: (server: string) =>
      `Les comptes sur ${server} sont créés par son service de comptes. Vérifiez ici votre jeton d’inscription ; vous continuerez ensuite là-bas pour choisir votre nom d’utilisateur et votre mot de passe.`,
    tokenHint: "Le code d’invitation que vous avez reçu.",
    check: "Vérifier le jeton",
    checking: "Vérification…",
    valid: "Ce jeton est valide.",
    invalid: "Ce jeton n’est pas valide : il est peut-être mal saisi, expiré, épuisé ou révoqué.",
    empty: "Saisissez votre jeton d’inscription.",
    failed: "Le jeton n’a pas pu être vérifié pour l’instant. Réessayez dans un moment.",
    continue: "Continuer pour créer votre compte",
    pasteHint: "Si la page suivante demande un jeton d’inscription, collez celui-ci :",
    copyToken: "Copier le jeton d’inscription",
  },
  demo: "DÉMO",
  demoTitle: "Mode démo : les comptes sont créés sur un serveur d’accueil simulé et disparaissent au redémarrage du portail",
  loading: "Chargement…",
  noServer: "Cette page d’inscription n’est pas disponible",
  noServerText: "Aucun serveur d’accueil n’est configuré ici pour l’inscription. Vérifiez le lien que vous avez reçu.",
  serverClosed: "Les inscriptions sont fermées",
  serverClosedText: "Ce serveur d’accueil n’accepte pas de nouveaux comptes pour le moment.",
  loadFailed: "La page d’inscription n’a pas pu être chargée",
  retry: "Réessayer",
  unreachable: (reason: string) => `Impossible de joindre le portail (${reason}). Vérifiez votre connexion et réessayez.`,

  form: {
    label: "Créer un compte",
    username: "Nom d’utilisateur",
    usernamePreview: (userId: string) => `Votre identifiant Matrix sera ${userId}`,
    displayName: "Nom affiché",
    displayNameHint: "Facultatif : le nom que les autres voient. Vous pourrez le changer plus tard.",
    password: "Mot de passe",
    passwordHint: "Au moins 8 caractères. Quelques mots sans rapport entre eux font un mot de passe solide et facile à retenir.",
    showPassword: "Afficher le mot de passe",
    hidePassword: "Masquer le mot de passe",
    confirmPassword: "Confirmer le mot de passe",
    token: "Jeton d’inscription",
    tokenHint: "Le code d’invitation que vous avez reçu.",
    submit: "Créer le compte",
    submitting: "Création de votre compte…",
    legalPrefix: "En créant un compte, vous acceptez",
    terms: "les conditions d’utilisation",
    privacy: "la politique de confidentialité",
    and: "et",
  },

  username: {
    empty: "Choisissez un nom d’utilisateur.",
    characters: "Utilisez uniquement des minuscules a–z, des chiffres 0–9 et . _ = -",
    underscore: "Un nom d’utilisateur ne peut pas commencer par _",
    digits: "Un nom d’utilisateur ne peut pas être composé uniquement de chiffres.",
    length: "Ce nom d’utilisateur est trop long.",
    checking: "Vérification de la disponibilité…",
    available: (userId: string) => `${userId} est disponible`,
    taken: "Ce nom d’utilisateur est déjà pris.",
    unknown: "La disponibilité n’a pas pu être vérifiée ; vous pouvez quand même essayer.",
  },

  password: {
    tooShort: (missing: number) => p(missing, { one: `Encore ${missing} caractère`, other: `Encore ${missing} caractères` }),
    levels: ["Trop court", "Faible", "Moyen", "Bon", "Fort"],
    strength: (level: string) => `Robustesse : ${level}`,
    weakAdvice: "Facile à deviner. Allongez-le, ou utilisez quelques mots sans rapport entre eux.",
    mismatch: "Les mots de passe ne correspondent pas.",
    match: "Les mots de passe correspondent.",
  },

  token: {
    checking: "Vérification du jeton…",
    valid: "Ce jeton est valide.",
    invalid: "Ce jeton n’est pas valide : il est peut-être mal saisi, expiré, épuisé ou désactivé.",
    unknown: "Le jeton n’a pas pu être vérifié maintenant ; il le sera lors de l’inscription.",
    prefilled: "Repris de votre lien d’invitation.",
    exhausted: "Ce jeton est épuisé.",
    disabled: "Ce jeton a été désactivé.",
    expired: "Ce jeton a expiré.",
  },

  invite: {
    checking: "Vérification de votre invitation…",
    valid: "Votre invitation est valide",
    validText: (server: string) =>
      `Choisissez ci-dessous un nom d’utilisateur et un mot de passe pour créer votre compte sur ${server}.`,
    validUntil: (when: string) => `Elle reste valable jusqu’au ${when}.`,
    exhausted: "Cette invitation est épuisée",
    exhaustedText:
      "Elle a déjà servi autant de fois que prévu. Demandez une nouvelle invitation à la personne qui vous l’a envoyée.",
    disabled: "Cette invitation a été retirée",
    disabledText: "Les administrateurs du serveur l’ont désactivée. Demandez-en une nouvelle à la personne qui vous l’a envoyée.",
    expired: "Cette invitation a expiré",
    expiredText: "Demandez une nouvelle invitation à la personne qui vous l’a envoyée.",
    unknown: "Cette invitation est inconnue ici",
    unknownText:
      "Vérifiez que vous avez ouvert le lien en entier, ou demandez-en une nouvelle à la personne qui vous l’a envoyée.",
    invalid: "Cette invitation ne peut pas être utilisée",
    invalidText: "Elle est peut-être épuisée, expirée ou retirée. Demandez-en une nouvelle à la personne qui vous l’a envoyée.",
    unchecked: "Votre invitation n’a pas pu être vérifiée pour l’instant",
    uncheckedText: "Vous pouvez quand même vous inscrire : elle sera vérifiée à la création de votre compte.",
    another: "J’ai un autre code d’invitation",
  },

  errors: {
    M_USER_IN_USE: "Ce nom d’utilisateur est déjà pris. Veuillez en choisir un autre.",
    M_INVALID_USERNAME: "Ce nom d’utilisateur ne peut pas être utilisé.",
    M_EXCLUSIVE: "Ce nom d’utilisateur est réservé sur ce serveur. Veuillez en choisir un autre.",
    M_PASSWORD_TOO_SHORT: "Le mot de passe est trop court pour ce serveur.",
    M_PASSWORD_NO_DIGIT: "Le mot de passe doit contenir au moins un chiffre.",
    M_PASSWORD_NO_SYMBOL: "Le mot de passe doit contenir au moins un symbole.",
    M_PASSWORD_NO_UPPERCASE: "Le mot de passe doit contenir au moins une majuscule.",
    M_PASSWORD_NO_LOWERCASE: "Le mot de passe doit contenir au moins une minuscule.",
    M_WEAK_PASSWORD: "Le mot de passe est trop faible. Veuillez en choisir un plus solide.",
    M_UNAUTHORIZED: "Le jeton d’inscription n’a pas été accepté.",
    M_FORBIDDEN: "Les inscriptions sont fermées sur ce serveur.",
    M_LIMIT_EXCEEDED: "Trop de tentatives. Veuillez patienter un instant.",
    M_NOT_FOUND: "Ce serveur d’accueil n’est pas disponible pour l’inscription.",
    M_MISSING_PARAM: "Veuillez remplir tous les champs obligatoires.",
    M_INVALID_PARAM: "Certaines informations ne sont pas valides.",
    M_NOT_JSON: "Le formulaire n’a pas pu être envoyé. Veuillez recharger la page.",
    M_BAD_JSON: "Le formulaire n’a pas pu être envoyé. Veuillez recharger la page.",
    M_UNKNOWN: "Le serveur d’accueil n’a pas pu créer le compte pour le moment. Veuillez réessayer plus tard.",
    NETWORK: "Votre compte n’a pas été créé : le portail était injoignable.",
  },
  errorFallback: "Votre compte n’a pas pu être créé.",
  errorTitle: "Échec de l’inscription",

  success: {
    title: "Votre compte est prêt",
    yourId: "Votre identifiant Matrix",
    copy: "Copier",
    copied: "Copié",
    copyId: "Copier votre identifiant Matrix",
    copyServer: "Copier l’adresse du serveur d’accueil",
    howTo: "Comment vous connecter",
    step1: "Installez une application Matrix (n’importe laquelle convient) :",
    step2: (server: string) =>
      `Choisissez « Se connecter » et, si l’application demande un serveur d’accueil, saisissez ${server}.`,
    homeserver: "Serveur d’accueil",
    step3: "Connectez-vous avec votre nom d’utilisateur et le mot de passe que vous venez de choisir.",
    platforms: { web: "Navigateur", desktop: "Ordinateur", ios: "iPhone et iPad", android: "Android", other: "Autres" },
    another: "Créer un autre compte",
  },

  brandingDefaults: {
    appTitle: "Inscription Matrix",
    subtitle: "Créez votre compte Matrix",
    welcomeHeadline: "Bienvenue",
    registrationText:
      "Choisissez un nom d’utilisateur et un mot de passe. Pour vous inscrire, il vous faut le jeton d’inscription (code d’invitation) que vous avez reçu.",
    successText:
      "Votre compte est prêt. Connectez-vous dans n’importe quelle application Matrix avec votre nom d’utilisateur et votre mot de passe.",
    usernameHint: "Uniquement des minuscules, des chiffres et . _ = -",
  },

  language: "Langue",

  footer: {
    privacy: "Confidentialité",
    terms: "Conditions",
    imprint: "Mentions légales",
    support: "Assistance",
    contact: "Contact",
  },
} satisfies PublicMessages;
