;; Scores of rows against a query, four lanes at a time (WebAssembly SIMD): see src/row-scores.ts.
;; Regenerate src/row-scores-wasm.ts with wasm/build.sh after a change.
(module
  (import "env" "memory" (memory 1))

  ;; The dot product of the query at $q with the row at $row: $bytes = dims × 4, a multiple of 32.
  (func $dot (param $q i32) (param $row i32) (param $bytes i32) (result f32)
    (local $i i32) (local $a v128) (local $b v128)
    (local.set $a (v128.const f32x4 0 0 0 0))
    (local.set $b (v128.const f32x4 0 0 0 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $bytes)))
        (local.set $a (f32x4.add (local.get $a)
          (f32x4.mul (v128.load (i32.add (local.get $q) (local.get $i)))
                     (v128.load (i32.add (local.get $row) (local.get $i))))))
        (local.set $b (f32x4.add (local.get $b)
          (f32x4.mul (v128.load offset=16 (i32.add (local.get $q) (local.get $i)))
                     (v128.load offset=16 (i32.add (local.get $row) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $next)))
    (local.set $a (f32x4.add (local.get $a) (local.get $b)))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
      (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))

  ;; out[r] = dot(query, row r) for r in [0, rows).
  (func (export "scores") (param $q i32) (param $data i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $bytes i32)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (call $dot (local.get $q)
            (i32.add (local.get $data) (i32.mul (local.get $r) (local.get $bytes)))
            (local.get $bytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $next))))

  ;; out[k] = dot(query, row ids[k]) for k in [0, count): the rows a shortlist names.
  (func (export "scores_of") (param $q i32) (param $data i32) (param $ids i32) (param $count i32) (param $dims i32) (param $out i32)
    (local $k i32) (local $bytes i32)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 2)))
          (call $dot (local.get $q)
            (i32.add (local.get $data)
              (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $k) (i32.const 2))))
                       (local.get $bytes)))
            (local.get $bytes)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))))
