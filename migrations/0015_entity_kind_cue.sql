-- How strong the evidence for an entity's kind is (memory/entities/kind-cues.ts, KIND_CUE: 0 none,
-- 1 weak, 2 context, 3 relation, 4 given by the source). A later write replaces the kind only with a
-- stronger cue (storage/d1-entity-writes.ts), so "met Ana in Oslo" (a weak cue for a place) gives way to
-- "my sister Ana" (a relation word) whichever memory came first. A row from before this column keeps
-- its kind as if given by the source: until now a kind other than `other` was never replaced.
ALTER TABLE `entities` ADD `kind_cue` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `entities` SET `kind_cue` = 4 WHERE `kind` <> 'other';
