-- Issue #11: an issuer's recipients have different party numbers (organisationsnummer, personnummer,
-- Y-tunnus); another issuer's recipient may have the same one. Two ways of writing one number are the
-- same number: the key is the digits, of a 12-digit form the last ten (schema.ts partyNumberKeySql,
-- packages/domain partyNumberKey). Recipients without a number are left out. The demo seed's 30
-- recipients have 30 different numbers; a database where one issuer already has a number twice stops
-- here, and the duplicates must be merged by hand first:
--   select issuer_id, right(regexp_replace(organization_number, '[^0-9]', '', 'g'), 10) as key, count(*)
--   from recipients where regexp_replace(organization_number, '[^0-9]', '', 'g') <> ''
--   group by 1, 2 having count(*) > 1;
CREATE UNIQUE INDEX "recipients_issuer_party_number_idx" ON "recipients" USING btree ("issuer_id", right(regexp_replace("organization_number", '[^0-9]', '', 'g'), 10)) WHERE regexp_replace("organization_number", '[^0-9]', '', 'g') <> '';
