/**
 * What the e-signing sandbox shows and seals: the account that authors every document (the portal's
 * Scrive user), and the texts of its signing page and signature page in the three languages a
 * document may have (`lang`: sv, en, fi; any other reads as English).
 */

/** The author party Scrive puts first in every new document: the portal's own account. */
export const SANDBOX_AUTHOR = {
  firstName: 'Kundportalen',
  lastName: 'Avtal',
  email: 'avtal@portal.local',
  company: 'Kundportalen AB',
};

export type SandboxLang = 'sv' | 'en' | 'fi';

export interface SigningTexts {
  pageTitle: string;
  intro: string;
  openPdf: string;
  parties: string;
  signed: string;
  rejected: string;
  waitingParty: string;
  waitForOthers: string;
  identify: string;
  personalNumber: string;
  sign: string;
  reject: string;
  rejectReason: string;
  youSigned: string;
  youRejected: string;
  documentClosed: string;
  documentRejected: string;
  documentCanceled: string;
  documentTimedout: string;
  wrongPersonalNumber: string;
  notFound: string;
  signaturePage: string;
  documentId: string;
  signedAt: string;
  method: string;
  sealed: string;
  methods: Record<string, string>;
}

export const SIGNING_TEXTS: Record<SandboxLang, SigningTexts> = {
  sv: {
    pageTitle: 'Signera avtal',
    intro: 'Läs igenom avtalet och signera det, eller avböj.',
    openPdf: 'Öppna avtalet (PDF)',
    parties: 'Parter',
    signed: 'Signerat',
    rejected: 'Avböjt',
    waitingParty: 'Väntar',
    waitForOthers: 'Du kan signera när parterna före dig har signerat.',
    identify: 'Legitimera dig för att signera',
    personalNumber: 'Personnummer',
    sign: 'Signera',
    reject: 'Avböj',
    rejectReason: 'Anledning (frivillig)',
    youSigned: 'Du har signerat avtalet. Tack!',
    youRejected: 'Du har avböjt avtalet.',
    documentClosed: 'Alla parter har signerat. Avtalet är förseglat.',
    documentRejected: 'Avtalet har avböjts av en part.',
    documentCanceled: 'Avtalet har återkallats av avsändaren.',
    documentTimedout: 'Tiden för att signera avtalet har gått ut.',
    wrongPersonalNumber: 'Personnumret stämmer inte med det avsändaren angett.',
    notFound: 'Länken är ogiltig.',
    signaturePage: 'Signeringssida',
    documentId: 'Dokument-ID',
    signedAt: 'Signerat',
    method: 'Metod',
    sealed: 'Förseglat',
    methods: {
      standard: 'E-signatur via länk',
      sms_pin: 'SMS-kod',
      se_bankid: 'Svenskt BankID',
      no_bankid: 'Norskt BankID',
      fi_tupas: 'Finsk bankidentifiering (FTN)',
    },
  },
  en: {
    pageTitle: 'Sign agreement',
    intro: 'Read the agreement and sign it, or reject it.',
    openPdf: 'Open the agreement (PDF)',
    parties: 'Parties',
    signed: 'Signed',
    rejected: 'Rejected',
    waitingParty: 'Waiting',
    waitForOthers: 'You can sign once the parties before you have signed.',
    identify: 'Identify yourself to sign',
    personalNumber: 'Personal identity number',
    sign: 'Sign',
    reject: 'Reject',
    rejectReason: 'Reason (optional)',
    youSigned: 'You have signed the agreement. Thank you!',
    youRejected: 'You have rejected the agreement.',
    documentClosed: 'Every party has signed. The agreement is sealed.',
    documentRejected: 'A party has rejected the agreement.',
    documentCanceled: 'The sender has withdrawn the agreement.',
    documentTimedout: 'The time to sign the agreement has run out.',
    wrongPersonalNumber: 'The personal identity number does not match the one the sender gave.',
    notFound: 'The link is not valid.',
    signaturePage: 'Signature page',
    documentId: 'Document ID',
    signedAt: 'Signed',
    method: 'Method',
    sealed: 'Sealed',
    methods: {
      standard: 'E-signature by link',
      sms_pin: 'SMS code',
      se_bankid: 'Swedish BankID',
      no_bankid: 'Norwegian BankID',
      fi_tupas: 'Finnish bank identification (FTN)',
    },
  },
  fi: {
    pageTitle: 'Allekirjoita sopimus',
    intro: 'Lue sopimus ja allekirjoita se, tai hylkää se.',
    openPdf: 'Avaa sopimus (PDF)',
    parties: 'Osapuolet',
    signed: 'Allekirjoitettu',
    rejected: 'Hylätty',
    waitingParty: 'Odottaa',
    waitForOthers: 'Voit allekirjoittaa, kun sinua ennen olevat osapuolet ovat allekirjoittaneet.',
    identify: 'Tunnistaudu allekirjoittaaksesi',
    personalNumber: 'Henkilötunnus',
    sign: 'Allekirjoita',
    reject: 'Hylkää',
    rejectReason: 'Syy (vapaaehtoinen)',
    youSigned: 'Olet allekirjoittanut sopimuksen. Kiitos!',
    youRejected: 'Olet hylännyt sopimuksen.',
    documentClosed: 'Kaikki osapuolet ovat allekirjoittaneet. Sopimus on sinetöity.',
    documentRejected: 'Osapuoli on hylännyt sopimuksen.',
    documentCanceled: 'Lähettäjä on perunut sopimuksen.',
    documentTimedout: 'Sopimuksen allekirjoitusaika on päättynyt.',
    wrongPersonalNumber: 'Henkilötunnus ei vastaa lähettäjän antamaa.',
    notFound: 'Linkki ei ole voimassa.',
    signaturePage: 'Allekirjoitussivu',
    documentId: 'Asiakirjan tunnus',
    signedAt: 'Allekirjoitettu',
    method: 'Tapa',
    sealed: 'Sinetöity',
    methods: {
      standard: 'Sähköinen allekirjoitus linkillä',
      sms_pin: 'Tekstiviestikoodi',
      se_bankid: 'Ruotsalainen BankID',
      no_bankid: 'Norjalainen BankID',
      fi_tupas: 'Pankkitunnistus (FTN)',
    },
  },
};

export function textsOf(lang: string): SigningTexts {
  return SIGNING_TEXTS[(lang in SIGNING_TEXTS ? lang : 'en') as SandboxLang];
}
