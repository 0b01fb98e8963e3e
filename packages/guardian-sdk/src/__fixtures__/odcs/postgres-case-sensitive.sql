-- Rows for postgres-case-sensitive.odcs.yaml: ten locker slots, every one within the contract.
CREATE TABLE public."Locker_Slots" (
  "Slot_Code" VARCHAR(10) PRIMARY KEY,
  "Size_Litres" INT NOT NULL,
  "Opened_At" TIMESTAMPTZ
);

INSERT INTO public."Locker_Slots" ("Slot_Code", "Size_Litres", "Opened_At") VALUES
  ('BER-01', 12, '2025-02-03 08:00:00'),
  ('BER-02', 12, '2025-02-03 08:05:00'),
  ('BER-03', 24, '2025-02-04 09:10:00'),
  ('HAM-01', 36, '2025-03-11 10:00:00'),
  ('HAM-02', 6, '2025-03-11 10:20:00'),
  ('KOE-01', 24, '2025-04-01 07:45:00'),
  ('KOE-02', 48, '2025-04-01 07:50:00'),
  ('MUC-01', 12, '2025-05-20 12:00:00'),
  ('MUC-02', 36, '2025-05-20 12:30:00'),
  ('MUC-03', 60, '2025-06-02 15:15:00');
