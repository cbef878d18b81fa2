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

  ;; Builder.measure of an AABB or sphere build's triangles first .. end - 1, read at the mesh's
  ;; vertices (xyz doubles at $positions, u32 corner indices at $indices): each centroid (3
  ;; doubles at $centroids), and each record ($stride bytes at $records) gets, after the moments
  ;; when $moments is 1 (area and area-weighted centroid about the point at $reference), the
  ;; corners' min and max. Returns the largest |coordinate| of the boxes (NaN when one is not a
  ;; number). f64.min and f64.max are Math.min and Math.max, -0, 0 and NaN included.
  (func (export "measureTriangles") (param $first i32) (param $end i32) (param $positions i32) (param $indices i32)
    (param $reference i32) (param $centroids i32) (param $records i32) (param $stride i32) (param $moments i32) (result f64)
    (local $t i32) (local $p i32) (local $q i32) (local $r i32) (local $w i32) (local $b i32)
    (local $px f64) (local $py f64) (local $pz f64) (local $qx f64) (local $qy f64) (local $qz f64)
    (local $rx f64) (local $ry f64) (local $rz f64) (local $ux f64) (local $uy f64) (local $uz f64)
    (local $vx f64) (local $vy f64) (local $vz f64) (local $gx f64) (local $gy f64) (local $gz f64)
    (local $x0 f64) (local $y0 f64) (local $z0 f64) (local $x1 f64) (local $y1 f64) (local $z1 f64)
    (local $nx f64) (local $ny f64) (local $nz f64) (local $area f64) (local $maxAbs f64)
    (local.set $t (local.get $first))
    (block $done
      (br_if $done (i32.ge_s (local.get $t) (local.get $end)))
      (loop $next
        (local.set $w (i32.add (local.get $indices) (i32.mul (local.get $t) (i32.const 12))))
        (local.set $p (i32.add (local.get $positions) (i32.mul (i32.load offset=0 (local.get $w)) (i32.const 24))))
        (local.set $q (i32.add (local.get $positions) (i32.mul (i32.load offset=4 (local.get $w)) (i32.const 24))))
        (local.set $r (i32.add (local.get $positions) (i32.mul (i32.load offset=8 (local.get $w)) (i32.const 24))))
        (local.set $px (f64.load offset=0 (local.get $p))) (local.set $py (f64.load offset=8 (local.get $p))) (local.set $pz (f64.load offset=16 (local.get $p)))
        (local.set $qx (f64.load offset=0 (local.get $q))) (local.set $qy (f64.load offset=8 (local.get $q))) (local.set $qz (f64.load offset=16 (local.get $q)))
        (local.set $rx (f64.load offset=0 (local.get $r))) (local.set $ry (f64.load offset=8 (local.get $r))) (local.set $rz (f64.load offset=16 (local.get $r)))
        (local.set $ux (f64.sub (local.get $qx) (local.get $px))) (local.set $uy (f64.sub (local.get $qy) (local.get $py))) (local.set $uz (f64.sub (local.get $qz) (local.get $pz)))
        (local.set $vx (f64.sub (local.get $rx) (local.get $px))) (local.set $vy (f64.sub (local.get $ry) (local.get $py))) (local.set $vz (f64.sub (local.get $rz) (local.get $pz)))
        (local.set $gx (f64.div (f64.add (local.get $ux) (local.get $vx)) (f64.const 3)))
        (local.set $gy (f64.div (f64.add (local.get $uy) (local.get $vy)) (f64.const 3)))
        (local.set $gz (f64.div (f64.add (local.get $uz) (local.get $vz)) (f64.const 3)))
        (local.set $w (i32.add (local.get $centroids) (i32.mul (local.get $t) (i32.const 24))))
        (f64.store offset=0 (local.get $w) (f64.add (local.get $px) (local.get $gx)))
        (f64.store offset=8 (local.get $w) (f64.add (local.get $py) (local.get $gy)))
        (f64.store offset=16 (local.get $w) (f64.add (local.get $pz) (local.get $gz)))
        (local.set $x0 (f64.min (f64.min (local.get $px) (local.get $qx)) (local.get $rx)))
        (local.set $y0 (f64.min (f64.min (local.get $py) (local.get $qy)) (local.get $ry)))
        (local.set $z0 (f64.min (f64.min (local.get $pz) (local.get $qz)) (local.get $rz)))
        (local.set $x1 (f64.max (f64.max (local.get $px) (local.get $qx)) (local.get $rx)))
        (local.set $y1 (f64.max (f64.max (local.get $py) (local.get $qy)) (local.get $ry)))
        (local.set $z1 (f64.max (f64.max (local.get $pz) (local.get $qz)) (local.get $rz)))
        (local.set $w (i32.add (local.get $records) (i32.mul (local.get $t) (local.get $stride))))
        (local.set $b (select (i32.add (local.get $w) (i32.const 32)) (local.get $w) (local.get $moments)))
        (f64.store offset=0 (local.get $b) (local.get $x0)) (f64.store offset=8 (local.get $b) (local.get $y0)) (f64.store offset=16 (local.get $b) (local.get $z0))
        (f64.store offset=24 (local.get $b) (local.get $x1)) (f64.store offset=32 (local.get $b) (local.get $y1)) (f64.store offset=40 (local.get $b) (local.get $z1))
        (local.set $maxAbs (f64.max (local.get $maxAbs)
          (f64.max (f64.max (f64.max (f64.max (f64.max (f64.neg (local.get $x0)) (f64.neg (local.get $y0))) (f64.neg (local.get $z0))) (local.get $x1)) (local.get $y1)) (local.get $z1))))
        (if (local.get $moments) (then
          (local.set $nx (f64.sub (f64.mul (local.get $uy) (local.get $vz)) (f64.mul (local.get $uz) (local.get $vy))))
          (local.set $ny (f64.sub (f64.mul (local.get $uz) (local.get $vx)) (f64.mul (local.get $ux) (local.get $vz))))
          (local.set $nz (f64.sub (f64.mul (local.get $ux) (local.get $vy)) (f64.mul (local.get $uy) (local.get $vx))))
          (local.set $area (f64.mul (f64.const 0.5) (f64.sqrt (f64.add (f64.add
            (f64.mul (local.get $nx) (local.get $nx)) (f64.mul (local.get $ny) (local.get $ny))) (f64.mul (local.get $nz) (local.get $nz))))))
          (f64.store offset=0 (local.get $w) (local.get $area))
          (f64.store offset=8 (local.get $w) (f64.mul (local.get $area)
            (f64.add (f64.sub (local.get $px) (f64.load offset=0 (local.get $reference))) (local.get $gx))))
          (f64.store offset=16 (local.get $w) (f64.mul (local.get $area)
            (f64.add (f64.sub (local.get $py) (f64.load offset=8 (local.get $reference))) (local.get $gy))))
          (f64.store offset=24 (local.get $w) (f64.mul (local.get $area)
            (f64.add (f64.sub (local.get $pz) (f64.load offset=16 (local.get $reference))) (local.get $gz))))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br_if $next (i32.lt_s (local.get $t) (local.get $end)))))
    (local.get $maxAbs))
)

