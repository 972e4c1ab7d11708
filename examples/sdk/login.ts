// Log in with email and password (JWT), with a 2FA code asked only when the account needs one.
//   SITEOPS_BASE_URL=... SITEOPS_EMAIL=... SITEOPS_PASSWORD=... [SITEOPS_OTP=123456] npx tsx examples/sdk/login.ts
import { OtpRequiredError, SiteOps } from "../../src/index.js";

const { SITEOPS_EMAIL: email, SITEOPS_PASSWORD: password, SITEOPS_OTP: otp } = process.env;
if (!email || !password) throw new Error("set SITEOPS_EMAIL and SITEOPS_PASSWORD");

try {
  const so = await SiteOps.login({ email, password, otp });
  const me = await so.me();
  console.log(`signed in as ${me.name} <${me.email}> (${me.role}) in ${me.current_account_id}`);
  // The access token lasts 15 minutes; the client refreshes it by itself. logout() revokes the session.
  await so.logout();
  console.log("signed out");
} catch (err) {
  if (err instanceof OtpRequiredError) console.error("this account has two-factor authentication: set SITEOPS_OTP");
  else throw err;
}
