;; The bounding-tree builder's hottest loops (src/tree/build.ts) in WebAssembly with 128-bit SIMD,
;; loaded by src/wasm/treeBuild.ts; scripts/assembleWasm.mjs assembles this text into
;; treeBuildBytes.ts. All addresses are byte offsets into the imported memory.
;; Each function gives the numbers of the JavaScript loop it replaces to the bit: the same
;; products and sums in the same order (no fused multiply-add), and pmin / pmax, which are that
;; loop's `v < min ? v : min` and `max < v ? v : max` (unlike min / max, they order -0 and 0 as it does).
;;
;; Range sums (Builder.sumRange): each walks the triangle ids ids[first .. end - 1] (u32 at $ids)
;; and reads each triangle's record of doubles at $m + id · stride · 8, in the layouts of
;; momentStride: the moments first, then for boxed builds the corners' min and max. They write
;; Builder's sums layout at $out: the moments at doubles 0 .. 9, the min at 10 .. 12, the max at
;; 13 .. 15.
(module
  (import "env" "memory" (memory 1))

  ;; 'mean' split, AABB or sphere nodes: 4 moments (area, area-weighted centroid), then the box.
  ;; Record of 10 doubles: a x | y z | x0 y0 | z0 x1 | y1 z1.
  (func (export "sumMeanBoxes") (param $ids i32) (param $first i32) (param $end i32) (param $m i32) (param $out i32)
    (local $ax v128) (local $yz v128) (local $min01 v128) (local $min2 v128) (local $max0 v128) (local $max12 v128)
    (local $p i32) (local $stop i32) (local $q i32)
    (local.set $min01 (f64x2.splat (f64.const inf)))
    (local.set $min2 (f64x2.splat (f64.const inf)))
    (local.set $max0 (f64x2.splat (f64.const -inf)))
    (local.set $max12 (f64x2.splat (f64.const -inf)))
    (local.set $p (i32.add (local.get $ids) (i32.shl (local.get $first) (i32.const 2))))
    (local.set $stop (i32.add (local.get $ids) (i32.shl (local.get $end) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $stop)))
      (loop $next
        (local.set $q (i32.add (local.get $m) (i32.mul (i32.load (local.get $p)) (i32.const 80))))
        (local.set $ax (f64x2.add (local.get $ax) (v128.load offset=0 (local.get $q))))
        (local.set $yz (f64x2.add (local.get $yz) (v128.load offset=16 (local.get $q))))
        (local.set $min01 (f64x2.pmin (local.get $min01) (v128.load offset=32 (local.get $q))))
        (local.set $min2 (f64x2.pmin (local.get $min2) (v128.load offset=48 (local.get $q))))
        (local.set $max0 (f64x2.pmax (local.get $max0) (v128.load offset=48 (local.get $q))))
        (local.set $max12 (f64x2.pmax (local.get $max12) (v128.load offset=64 (local.get $q))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $p) (local.get $stop)))))
    (v128.store offset=0 (local.get $out) (local.get $ax))
    (v128.store offset=16 (local.get $out) (local.get $yz))
    (v128.store offset=80 (local.get $out) (local.get $min01))
    (f64.store offset=96 (local.get $out) (f64x2.extract_lane 0 (local.get $min2)))
    (f64.store offset=104 (local.get $out) (f64x2.extract_lane 1 (local.get $max0)))
    (v128.store offset=112 (local.get $out) (local.get $max12)))

  ;; Other splits, AABB or sphere nodes: the box alone. Record of 6 doubles: x0 y0 | z0 x1 | y1 z1.
  (func (export "sumBoxes") (param $ids i32) (param $first i32) (param $end i32) (param $m i32) (param $out i32)
    (local $min01 v128) (local $min2 v128) (local $max0 v128) (local $max12 v128)
    (local $p i32) (local $stop i32) (local $q i32)
    (local.set $min01 (f64x2.splat (f64.const inf)))
    (local.set $min2 (f64x2.splat (f64.const inf)))
    (local.set $max0 (f64x2.splat (f64.const -inf)))
    (local.set $max12 (f64x2.splat (f64.const -inf)))
    (local.set $p (i32.add (local.get $ids) (i32.shl (local.get $first) (i32.const 2))))
    (local.set $stop (i32.add (local.get $ids) (i32.shl (local.get $end) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $stop)))
      (loop $next
        (local.set $q (i32.add (local.get $m) (i32.mul (i32.load (local.get $p)) (i32.const 48))))
        (local.set $min01 (f64x2.pmin (local.get $min01) (v128.load offset=0 (local.get $q))))
        (local.set $min2 (f64x2.pmin (local.get $min2) (v128.load offset=16 (local.get $q))))
        (local.set $max0 (f64x2.pmax (local.get $max0) (v128.load offset=16 (local.get $q))))
        (local.set $max12 (f64x2.pmax (local.get $max12) (v128.load offset=32 (local.get $q))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $p) (local.get $stop)))))
    (v128.store offset=0 (local.get $out) (v128.const i64x2 0 0))
    (v128.store offset=16 (local.get $out) (v128.const i64x2 0 0))
    (v128.store offset=80 (local.get $out) (local.get $min01))
    (f64.store offset=96 (local.get $out) (f64x2.extract_lane 0 (local.get $min2)))
    (f64.store offset=104 (local.get $out) (f64x2.extract_lane 1 (local.get $max0)))
    (v128.store offset=112 (local.get $out) (local.get $max12)))

  ;; OBB nodes with the covariance fit: all 10 moments, no box. Record of 10 doubles.
  (func (export "sumCovariance") (param $ids i32) (param $first i32) (param $end i32) (param $m i32) (param $out i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $s4 v128)
    (local $p i32) (local $stop i32) (local $q i32)
    (local.set $p (i32.add (local.get $ids) (i32.shl (local.get $first) (i32.const 2))))
    (local.set $stop (i32.add (local.get $ids) (i32.shl (local.get $end) (i32.const 2))))
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $stop)))
      (loop $next
        (local.set $q (i32.add (local.get $m) (i32.mul (i32.load (local.get $p)) (i32.const 80))))
        (local.set $s0 (f64x2.add (local.get $s0) (v128.load offset=0 (local.get $q))))
        (local.set $s1 (f64x2.add (local.get $s1) (v128.load offset=16 (local.get $q))))
        (local.set $s2 (f64x2.add (local.get $s2) (v128.load offset=32 (local.get $q))))
        (local.set $s3 (f64x2.add (local.get $s3) (v128.load offset=48 (local.get $q))))
        (local.set $s4 (f64x2.add (local.get $s4) (v128.load offset=64 (local.get $q))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (br_if $next (i32.lt_u (local.get $p) (local.get $stop)))))
    (v128.store offset=0 (local.get $out) (local.get $s0))
    (v128.store offset=16 (local.get $out) (local.get $s1))
    (v128.store offset=32 (local.get $out) (local.get $s2))
    (v128.store offset=48 (local.get $out) (local.get $s3))
    (v128.store offset=64 (local.get $out) (local.get $s4)))

  ;; The extents of `count` points (xyz doubles at $points) on three axes (9 doubles at $axes, one
  ;; axis after the other): min on each axis at $out, then max, as obbFromAxes (src/volumes/obb.ts)
  ;; projects them. The first two axes share one 128-bit lane pair; each product and sum is the
  ;; JavaScript expression's, in its order.
  (func (export "projectPoints") (param $points i32) (param $count i32) (param $axes i32) (param $out i32)
    (local $ax v128) (local $ay v128) (local $az v128) (local $wx f64) (local $wy f64) (local $wz f64)
    (local $min01 v128) (local $max01 v128) (local $min2 f64) (local $max2 f64)
    (local $x f64) (local $y f64) (local $z f64) (local $d01 v128) (local $d2 f64)
    (local $p i32) (local $stop i32)
    (local.set $ax (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=0 (local.get $axes))) (f64.load offset=24 (local.get $axes))))
    (local.set $ay (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=8 (local.get $axes))) (f64.load offset=32 (local.get $axes))))
    (local.set $az (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=16 (local.get $axes))) (f64.load offset=40 (local.get $axes))))
    (local.set $wx (f64.load offset=48 (local.get $axes)))
    (local.set $wy (f64.load offset=56 (local.get $axes)))
    (local.set $wz (f64.load offset=64 (local.get $axes)))
    (local.set $min01 (f64x2.splat (f64.const inf)))
    (local.set $max01 (f64x2.splat (f64.const -inf)))
    (local.set $min2 (f64.const inf))
    (local.set $max2 (f64.const -inf))
    (local.set $p (local.get $points))
    (local.set $stop (i32.add (local.get $points) (i32.mul (local.get $count) (i32.const 24))))
    (block $done
      (br_if $done (i32.ge_u (local.get $p) (local.get $stop)))
      (loop $next
        (local.set $x (f64.load offset=0 (local.get $p)))
        (local.set $y (f64.load offset=8 (local.get $p)))
        (local.set $z (f64.load offset=16 (local.get $p)))
        (local.set $d01 (f64x2.add
          (f64x2.add (f64x2.mul (f64x2.splat (local.get $x)) (local.get $ax)) (f64x2.mul (f64x2.splat (local.get $y)) (local.get $ay)))
          (f64x2.mul (f64x2.splat (local.get $z)) (local.get $az))))
        (local.set $d2 (f64.add
          (f64.add (f64.mul (local.get $x) (local.get $wx)) (f64.mul (local.get $y) (local.get $wy)))
          (f64.mul (local.get $z) (local.get $wz))))
        (local.set $min01 (f64x2.pmin (local.get $min01) (local.get $d01)))
        (local.set $max01 (f64x2.pmax (local.get $max01) (local.get $d01)))
        (local.set $min2 (select (local.get $d2) (local.get $min2) (f64.lt (local.get $d2) (local.get $min2))))
        (local.set $max2 (select (local.get $d2) (local.get $max2) (f64.gt (local.get $d2) (local.get $max2))))
        (local.set $p (i32.add (local.get $p) (i32.const 24)))
        (br_if $next (i32.lt_u (local.get $p) (local.get $stop)))))
    (v128.store offset=0 (local.get $out) (local.get $min01))
    (f64.store offset=16 (local.get $out) (local.get $min2))
    (v128.store offset=24 (local.get $out) (local.get $max01))
    (f64.store offset=40 (local.get $out) (local.get $max2)))

  ;; Builder.partition of an OBB build: moves the tree-order triangles first .. first + count - 1
  ;; whose centroid projects below $at on axis ($ax, $ay, $az) to the front, with their
  ;; triangles (9 doubles at $tris), centroids (3 doubles at $centroids) and ids (u32 at $ids);
  ;; returns where the others start. The same scans and swaps as the JavaScript loop.
  (func (export "partitionTriangles") (param $first i32) (param $count i32) (param $ax f64) (param $ay f64) (param $az f64) (param $at f64)
    (param $tris i32) (param $centroids i32) (param $ids i32) (result i32)
    (local $i i32) (local $j i32) (local $a i32) (local $b i32) (local $v v128) (local $d f64) (local $k i32)
    (local.set $i (local.get $first))
    (local.set $j (i32.sub (i32.add (local.get $first) (local.get $count)) (i32.const 1)))
    (loop $swaps
      (block $left
        (loop $scan
          (br_if $left (i32.gt_s (local.get $i) (local.get $j)))
          (local.set $a (i32.add (local.get $centroids) (i32.mul (local.get $i) (i32.const 24))))
          (br_if $left (i32.eqz (f64.lt
            (f64.add (f64.add (f64.mul (f64.load offset=0 (local.get $a)) (local.get $ax)) (f64.mul (f64.load offset=8 (local.get $a)) (local.get $ay)))
              (f64.mul (f64.load offset=16 (local.get $a)) (local.get $az)))
            (local.get $at))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $scan)))
      (block $right
        (loop $scan
          (br_if $right (i32.gt_s (local.get $i) (local.get $j)))
          (local.set $a (i32.add (local.get $centroids) (i32.mul (local.get $j) (i32.const 24))))
          (br_if $right (f64.lt
            (f64.add (f64.add (f64.mul (f64.load offset=0 (local.get $a)) (local.get $ax)) (f64.mul (f64.load offset=8 (local.get $a)) (local.get $ay)))
              (f64.mul (f64.load offset=16 (local.get $a)) (local.get $az)))
            (local.get $at)))
          (local.set $j (i32.sub (local.get $j) (i32.const 1)))
          (br $scan)))
      (if (i32.ge_s (local.get $i) (local.get $j)) (then (return (local.get $i))))
      ;; triangles: 72 bytes as four 16-byte runs and one double
      (local.set $a (i32.add (local.get $tris) (i32.mul (local.get $i) (i32.const 72))))
      (local.set $b (i32.add (local.get $tris) (i32.mul (local.get $j) (i32.const 72))))
      (local.set $k (i32.const 0))
      (loop $runs
        (local.set $v (v128.load (local.get $a)))
        (v128.store (local.get $a) (v128.load (local.get $b)))
        (v128.store (local.get $b) (local.get $v))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $runs (i32.lt_u (local.get $k) (i32.const 4))))
      (local.set $d (f64.load (local.get $a)))
      (f64.store (local.get $a) (f64.load (local.get $b)))
      (f64.store (local.get $b) (local.get $d))
      ;; centroids: 24 bytes
      (local.set $a (i32.add (local.get $centroids) (i32.mul (local.get $i) (i32.const 24))))
      (local.set $b (i32.add (local.get $centroids) (i32.mul (local.get $j) (i32.const 24))))
      (local.set $v (v128.load (local.get $a)))
      (v128.store (local.get $a) (v128.load (local.get $b)))
      (v128.store (local.get $b) (local.get $v))
      (local.set $d (f64.load offset=16 (local.get $a)))
      (f64.store offset=16 (local.get $a) (f64.load offset=16 (local.get $b)))
      (f64.store offset=16 (local.get $b) (local.get $d))
      ;; ids
      (local.set $a (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $b (i32.add (local.get $ids) (i32.shl (local.get $j) (i32.const 2))))
      (local.set $k (i32.load (local.get $a)))
      (i32.store (local.get $a) (i32.load (local.get $b)))
      (i32.store (local.get $b) (local.get $k))
      (br $swaps))
    (unreachable))

  ;; Builder.partition of an AABB or sphere build: moves the ids first .. first + count - 1 whose
  ;; triangle's centroid (3 doubles per mesh triangle at $centroids) has coordinate $axis below $at
  ;; to the front; returns where the others start. The same scans and swaps as the JavaScript loop.
  (func (export "partitionIds") (param $first i32) (param $count i32) (param $axis i32) (param $at f64)
    (param $centroids i32) (param $ids i32) (result i32)
    (local $i i32) (local $j i32) (local $a i32) (local $b i32) (local $s i32) (local $base i32)
    (local.set $base (i32.add (local.get $centroids) (i32.shl (local.get $axis) (i32.const 3))))
    (local.set $i (local.get $first))
    (local.set $j (i32.sub (i32.add (local.get $first) (local.get $count)) (i32.const 1)))
    (loop $swaps
      (block $left
        (loop $scan
          (br_if $left (i32.gt_s (local.get $i) (local.get $j)))
          (br_if $left (i32.eqz (f64.lt
            (f64.load (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 24))))
            (local.get $at))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $scan)))
      (block $right
        (loop $scan
          (br_if $right (i32.gt_s (local.get $i) (local.get $j)))
          (br_if $right (f64.lt
            (f64.load (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $j) (i32.const 2)))) (i32.const 24))))
            (local.get $at)))
          (local.set $j (i32.sub (local.get $j) (i32.const 1)))
          (br $scan)))
      (if (i32.ge_s (local.get $i) (local.get $j)) (then (return (local.get $i))))
      (local.set $a (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2))))
      (local.set $b (i32.add (local.get $ids) (i32.shl (local.get $j) (i32.const 2))))
      (local.set $s (i32.load (local.get $a)))
      (i32.store (local.get $a) (i32.load (local.get $b)))
      (i32.store (local.get $b) (local.get $s))
      (br $swaps))
    (unreachable))
)
